// everything-server's start-up: its flags, its options, its fixtures (main.cpp
// calls it; bench/soak's chaos server calls it with hooks of its own).
#include "server_main.hpp"

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <optional>

#include <CLI/CLI.hpp>
#include <cafmcp/server.hpp>
#include <cafmcp/version.hpp>

#include "fixtures.hpp"
#include "server_flags.hpp"

namespace everything {

int server_main(int argc, char** argv, const server_hooks& hooks) {
  CLI::App app{"cafmcp everything-server: every MCP conformance fixture"};
  examples::server_flags flags(app, "everything-server"); // --stdio | --http, tracing, --log-level
  cafmcp::http_options& http_opts = flags.http;
  std::string metadata = "both";
  std::size_t page_size = 100;
  std::size_t max_message_bytes = 4 * 1024 * 1024;
  app.add_option("--change-metadata", metadata, "where list_changed carries operation metadata")
    ->capture_default_str()
    ->check(CLI::IsMember({"params", "meta", "both", "none"}));
  app.add_option("--page-size", page_size, "items per list page")
    ->capture_default_str()
    ->check(CLI::PositiveNumber);
  app.add_option("--max-message-bytes", max_message_bytes, "largest accepted message")->capture_default_str();
  app.add_option("--allowed-host", http_opts.allowed_hosts,
                 "another Host header value to accept (a proxy's host:port); repeatable");
  std::size_t idle_ms = 0;
  app.add_option("--session-idle-timeout-ms", idle_ms,
                 "end HTTP sessions with no connection for this long (default 10 min)");
  std::int64_t client_request_timeout_ms = 60000;
  app
    .add_option("--client-request-timeout-ms", client_request_timeout_ms,
                "how long a handler waits for the client's answer (sampling, elicitation)")
    ->capture_default_str()
    ->check(CLI::Range(std::int64_t{1}, std::int64_t{3600000}));
  bool threaded_handlers = false;
  app.add_flag("--threaded-handlers", threaded_handlers,
               "run quick tools' handlers on threads of their own too (for comparing)");
  cafmcp::cluster_options cluster;
  app.add_option(
    "--cluster", cluster.url,
    "run as one node of a cluster sharing this change log: redis://[[USER]:PASSWORD@]HOST:PORT[/DB] "
    "(or CAFMCP_CLUSTER_URL, which keeps a password out of the process list)");
  app.add_option("--node-id", cluster.node_id, "this node's name in the cluster (default: random)");
  app.add_option("--cluster-prefix", cluster.key_prefix, "prefix of the cluster's Redis keys")
    ->capture_default_str();
  app.add_option("--cluster-secret", cluster.secret,
                 "the key every node seals client state with (or CAFMCP_CLUSTER_SECRET)");
  app
    .add_option("--outbox-limit", cluster.outbox_limit,
                "changes held while the log is unreachable, then one resync instead")
    ->capture_default_str()
    ->check(CLI::PositiveNumber);
  app
    .add_option("--replay-entries", cluster.replay_entries,
                "log entries kept to resume a GET stream another node served")
    ->capture_default_str()
    ->check(CLI::PositiveNumber);
  std::int64_t lease_ms = cluster.stream_lease.count();
  app
    .add_option("--stream-lease-ms", lease_ms,
                "how long this node owns its GET streams without hearing from the log")
    ->capture_default_str()
    ->check(CLI::Range(std::int64_t{30}, std::int64_t{3600000}));
  CLI11_PARSE(app, argc, argv);
  cluster.stream_lease = std::chrono::milliseconds(lease_ms);
  if (cluster.url.empty())
    if (const char* env = std::getenv("CAFMCP_CLUSTER_URL"))
      cluster.url = env;
  if (cluster.secret.empty())
    if (const char* env = std::getenv("CAFMCP_CLUSTER_SECRET"))
      cluster.secret = env;
  if (!cluster.url.empty() && cluster.secret.empty()) {
    std::fputs("everything-server: --cluster needs --cluster-secret (or CAFMCP_CLUSTER_SECRET), "
               "the same on every node\n",
               stderr);
    return 2;
  }

  static const std::map<std::string, cafmcp::change_metadata> modes = {
    {"params", cafmcp::change_metadata::params},
    {"meta", cafmcp::change_metadata::meta},
    {"both", cafmcp::change_metadata::both},
    {"none", cafmcp::change_metadata::none}};
  cafmcp::server_options opts;
  opts.name = "cafmcp-everything-server";
  opts.version = std::string(cafmcp::version()); // the example reports the library's
  opts.instructions = "Conformance fixtures plus add/update/remove mutation tools.";
  opts.tools = opts.resources = opts.prompts = cafmcp::capability_mode::on;
  opts.list_changed_metadata = modes.at(metadata);
  opts.page_size = page_size;
  opts.inline_quick_handlers = !threaded_handlers;
  opts.client_request_timeout = std::chrono::milliseconds(client_request_timeout_ms);
  opts.message_limits.max_message_bytes = max_message_bytes;
  // 2026-07-28 caching hints, as the conformance reference server gives them.
  opts.list_cache = {std::chrono::minutes(5), true};
  opts.read_cache = {std::chrono::minutes(5), false};

  opts.cluster = cluster;
  if (hooks.configure)
    hooks.configure(opts);
  if (idle_ms > 0)
    http_opts.session_idle_timeout = std::chrono::milliseconds(idle_ms);

  return flags.run([&] {
    flags.apply(opts);
    std::optional<cafmcp::server> made;
    try {
      made.emplace(opts);
    } catch (const std::invalid_argument& e) { // a bad --cluster URL
      std::fprintf(stderr, "everything-server: %s\n", e.what());
      return 2;
    }
    auto& srv = *made;
    install_conformance_fixtures(srv);
    install_stateless_fixtures(srv);
    install_task_fixtures(srv);
    install_mutation_tools(srv);
    install_diagnostics(srv);
    if (flags.auth_requested())
      install_auth_fixtures(srv);
    auto alongside = hooks.started ? hooks.started(srv) : nullptr;
    return flags.serve(srv);
  });
}

} // namespace everything

// everything-server: every conformance fixture plus the mutation tools, over
// stdio or Streamable HTTP.
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <iostream>
#include <map>

#include <CLI/CLI.hpp>
#include <cafmcp/server.hpp>
#include <cafmcp/stdio.hpp>
#include <cafmcp/otel/environment.hpp>
#include <cafmcp/otel/mcp_tracer.hpp>
#include <cafmcp/streamable_http.hpp>
#include <cafmcp/version.hpp>

#include "fixtures.hpp"

int main(int argc, char** argv) {
  CLI::App app{"cafmcp everything-server: every MCP conformance fixture"};
  bool stdio = true;
  std::string metadata = "both";
  std::size_t page_size = 100;
  std::size_t max_message_bytes = 4 * 1024 * 1024;
  app.add_flag("--stdio", stdio, "serve one client on stdin/stdout (default)");
  app.add_option("--change-metadata", metadata, "where list_changed carries operation metadata")
    ->check(CLI::IsMember({"params", "meta", "both", "none"}));
  app.add_option("--page-size", page_size, "items per list page")->check(CLI::PositiveNumber);
  app.add_option("--max-message-bytes", max_message_bytes, "largest accepted message");
  bool http = false;
  cafmcp::http_options http_opts;
  app.add_flag("--http", http, "serve Streamable HTTP at http://HOST:PORT/mcp instead");
  app.add_option("--host", http_opts.host, "address to bind (default 127.0.0.1)");
  app.add_option("--port", http_opts.port, "port (0: any free port, printed on stderr)");
  app.add_option("--allowed-host", http_opts.allowed_hosts,
                 "another Host header value to accept (a proxy's host:port); repeatable");
  app.add_option("--event-loops", http_opts.event_loops,
                 "HTTP event-loop threads (default " + std::to_string(http_opts.event_loops) + ")")
    ->check(CLI::Range(1, 16));
  std::string tls_cert, tls_key;
  app.add_option("--tls-cert", tls_cert, "serve HTTPS with this PEM certificate chain (needs --tls-key)");
  app.add_option("--tls-key", tls_key, "the PEM private key of --tls-cert");
  std::size_t idle_ms = 0;
  app.add_option("--session-idle-timeout-ms", idle_ms,
                 "end HTTP sessions with no connection for this long (default 10 min)");
  std::string otlp_endpoint;
  app.add_option("--otlp-endpoint", otlp_endpoint,
                 "export traces over OTLP/HTTP to this base URL, e.g. http://localhost:4318 "
                 "(the OTEL_* environment variables work too)");
  std::string trace_file;
  app.add_option("--trace-file", trace_file,
                 "write traces as OTLP/JSON lines to this file instead (Jaeger's UI loads it)");
  std::int64_t client_request_timeout_ms = 60000;
  app.add_option("--client-request-timeout-ms", client_request_timeout_ms,
                 "how long a handler waits for the client's answer (sampling, elicitation)")
    ->capture_default_str()->check(CLI::Range(std::int64_t{1}, std::int64_t{3600000}));
  bool threaded_handlers = false;
  app.add_flag("--threaded-handlers", threaded_handlers,
               "run quick tools' handlers on threads of their own too (for comparing)");
  cafmcp::cluster_options cluster;
  app.add_option("--cluster", cluster.url,
                 "run as one node of a cluster sharing this change log: redis://[[USER]:PASSWORD@]HOST:PORT[/DB] "
                 "(or CAFMCP_CLUSTER_URL, which keeps a password out of the process list)");
  app.add_option("--node-id", cluster.node_id, "this node's name in the cluster (default: random)");
  app.add_option("--cluster-prefix", cluster.key_prefix, "prefix of the cluster's Redis keys")
    ->capture_default_str();
  app.add_option("--cluster-secret", cluster.secret,
                 "the key every node seals client state with (or CAFMCP_CLUSTER_SECRET)");
  app.add_option("--outbox-limit", cluster.outbox_limit,
                 "changes held while the log is unreachable, then one resync instead")
    ->capture_default_str()->check(CLI::PositiveNumber);
  app.add_option("--replay-entries", cluster.replay_entries,
                 "log entries kept to resume a GET stream another node served")
    ->capture_default_str()->check(CLI::PositiveNumber);
  std::int64_t lease_ms = cluster.stream_lease.count();
  app.add_option("--stream-lease-ms", lease_ms,
                 "how long this node owns its GET streams without hearing from the log")
    ->capture_default_str()->check(CLI::Range(std::int64_t{30}, std::int64_t{3600000}));
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
               "the same on every node\n", stderr);
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

  // Declared before the server, so it outlives it and flushes at exit.
  cafmcp::otel::provider_settings tracing;
  tracing.default_service = "everything-server";
  if (!otlp_endpoint.empty())
    tracing.otlp_endpoint = otlp_endpoint;
  if (!trace_file.empty())
    tracing.jsonl_path = trace_file;
  auto provider = cafmcp::otel::provider_from_environment(tracing);
  opts.tracer = cafmcp::otel::make_mcp_tracer(provider);
  opts.cluster = cluster;

  std::optional<cafmcp::server> made;
  try {
    made.emplace(opts);
  } catch (const std::invalid_argument& e) { // a bad --cluster URL
    std::fprintf(stderr, "everything-server: %s\n", e.what());
    return 2;
  }
  auto& srv = *made;
  everything::install_conformance_fixtures(srv);
  everything::install_stateless_fixtures(srv);
  everything::install_mutation_tools(srv);
  everything::install_diagnostics(srv);
  if (!http)
    return cafmcp::serve_stdio(srv);
  if (idle_ms > 0)
    http_opts.session_idle_timeout = std::chrono::milliseconds(idle_ms);
  if (!tls_cert.empty())
    http_opts.tls_certificate_file = tls_cert;
  if (!tls_key.empty())
    http_opts.tls_private_key_file = tls_key;
  cafmcp::streamable_http transport(srv, http_opts);
  try {
    transport.start();
  } catch (const cafmcp::startup_error& e) { // a port in use, a bad --host
    std::fprintf(stderr, "everything-server: %s\n", e.what());
    return 1;
  }
  // One write: std::cerr writes each << on its own, and another thread's
  // message (a tracing warning) could land inside the URL a client reads.
  auto scheme = tls_cert.empty() ? "http://" : "https://";
  auto line = std::string("everything-server: listening on ") + scheme + http_opts.host + ":"
              + std::to_string(transport.port()) + http_opts.path + "\n";
  std::fputs(line.c_str(), stderr);
  return transport.run(); // until SIGINT/SIGTERM
}

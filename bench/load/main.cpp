// cafmcp-load: drives any Streamable HTTP MCP server that has the
// everything-server's mutation tools and reports what its sessions receive.
//
//   fanout:   K sessions, each with its GET stream, subscribed to W*U uris;
//             W drivers call update_resource M times in all, keeping at most
//             `window` mutations not yet delivered to every session
//             (window 1 = one update at a time). Every resources/updated is
//             checked: driver w cycles through its U uris, so each session must
//             see them in cyclic order, exactly once per mutation (loss,
//             duplicates and reordering are counted, not guessed).
//   requests: C clients each call tools/call test_simple_text back to back.
//
// Latency is mutation sent -> notification parsed, both on this process's
// steady (CLOCK_MONOTONIC) clock. One event-loop thread; its CPU is reported.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <unordered_map>

#include <CLI/CLI.hpp>

#include "connector.hpp"
#include "fanout.hpp"
#include "load_run.hpp"
#include "request_rate.hpp"
#include "server_process.hpp"

namespace cafmcp::load {
namespace {

void report(const options& o, const result& r, const std::vector<std::string>& server_messages) {
  double rate =
    r.seconds > 0 ? static_cast<double>(o.mode == "requests" ? r.requests : r.delivered) / r.seconds : 0;
  nlohmann::json j = {{"label", o.label},
                      {"mode", o.mode},
                      {"sessions", o.sessions},
                      {"mutations", o.mutations},
                      {"drivers", o.drivers},
                      {"uris_per_driver", o.uris_per_driver},
                      {"window", o.window},
                      {"clients", o.clients},
                      {"seconds", r.seconds},
                      {"rate_per_s", rate},
                      {"delivered", r.delivered},
                      {"requests", r.requests},
                      {"lost", r.lost},
                      {"duplicated", r.duplicated},
                      {"out_of_order", r.out_of_order},
                      {"other_messages", r.other},
                      {"min_us", r.latency.min_us},
                      {"p50_us", r.latency.p50_us},
                      {"p99_us", r.latency.p99_us},
                      {"max_us", r.latency.max_us},
                      {"server_rss_kib_start", r.rss_start},
                      {"server_rss_kib_idle", r.rss_idle},
                      {"server_rss_kib_end", r.rss_end},
                      {"client_cpu_s", r.client_cpu},
                      {"client_cpu_share", r.seconds > 0 ? r.client_cpu / r.seconds : 0},
                      {"server_cpu_s", r.server_cpu},
                      {"server_messages", server_messages},
                      {"error", r.error}};
  auto items = o.mode == "requests" ? r.requests : r.delivered;
  if (items > 0 && r.server_cpu > 0)
    j["server_cpu_us_per_item"] = 1e6 * r.server_cpu / static_cast<double>(items);
  if (o.mode == "fanout" && o.sessions > 0 && r.rss_start > 0)
    j["server_kib_per_idle_session"] = static_cast<double>(r.rss_idle - r.rss_start) / o.sessions;
  if (o.json) {
    std::cout << j.dump() << std::endl;
    return;
  }
  std::printf("%s %s: %.0f %s/s over %.2f s\n", o.label.c_str(), o.mode.c_str(), rate,
              o.mode == "requests" ? "requests" : "notifications", r.seconds);
  std::printf("  latency min %.0f us  p50 %.0f us  p99 %.0f us  max %.0f us\n", r.latency.min_us,
              r.latency.p50_us, r.latency.p99_us, r.latency.max_us);
  if (o.mode == "fanout")
    std::printf("  delivered %llu  lost %llu  duplicated %llu  out-of-order %llu  (other messages %llu)\n",
                (unsigned long long)r.delivered, (unsigned long long)r.lost, (unsigned long long)r.duplicated,
                (unsigned long long)r.out_of_order, (unsigned long long)r.other);
  std::printf("  server RSS KiB: start %ld  idle %ld  end %ld\n", r.rss_start, r.rss_idle, r.rss_end);
  std::printf("  load client CPU %.2f s (%.0f%% of one core)\n", r.client_cpu,
              r.seconds > 0 ? 100 * r.client_cpu / r.seconds : 0);
  if (auto items = o.mode == "requests" ? r.requests : r.delivered; items > 0 && r.server_cpu > 0)
    std::printf("  server CPU %.2f s (%.2f us per %s)\n", r.server_cpu,
                1e6 * r.server_cpu / static_cast<double>(items),
                o.mode == "requests" ? "request" : "delivery");
  for (auto& m : server_messages)
    std::printf("  server said: %s\n", m.c_str());
  if (!r.error.empty())
    std::printf("  error: %s\n", r.error.c_str());
}

} // namespace
} // namespace cafmcp::load

int main(int argc, char** argv) {
  using namespace cafmcp::load;
  options o;
  CLI::App app{"cafmcp-load: fan-out and request-rate load for MCP servers over Streamable HTTP"};
  app.add_option("--mode", o.mode, "fanout | requests")->check(CLI::IsMember({"fanout", "requests"}));
  app.add_option("--url", o.url, "server endpoint, http://HOST:PORT/mcp");
  app.add_flag("--stdio", o.stdio, "run --server over its stdin/stdout (one session: -k 1)");
  app.add_option("--server", o.server, "command starting the server (it prints its URL on stderr)");
  app.add_option("--server-pid", o.server_pid, "pid whose RSS to report (with --url)");
  app.add_option("--sessions,-k", o.sessions, "subscribed sessions (fanout)")->check(CLI::NonNegativeNumber);
  app.add_option("--mutations,-m", o.mutations, "update_resource calls in all")
    ->check(CLI::NonNegativeNumber);
  app.add_option("--drivers,-w", o.drivers, "concurrent mutation drivers")->check(CLI::PositiveNumber);
  app.add_option("--uris,-u", o.uris_per_driver, "uris per driver (>1 lets a session detect loss in order)")
    ->check(CLI::PositiveNumber);
  app
    .add_option("--window", o.window, "mutations per driver not yet delivered everywhere (1 = one at a time)")
    ->check(CLI::PositiveNumber);
  app.add_option("--clients,-c", o.clients, "concurrent clients (requests)")->check(CLI::PositiveNumber);
  app.add_option("--duration", o.duration, "seconds (requests)");
  app.add_option("--setup-parallel", o.setup_parallel, "sessions opened at once")->check(CLI::PositiveNumber);
  app.add_option("--timeout", o.timeout, "seconds without progress before giving up")
    ->check(CLI::PositiveNumber);
  app.add_option("--label", o.label, "name printed with the result");
  app.add_option("--bearer-token", o.bearer_token, "HTTP: send this token on every request");
  app.add_flag("--json", o.json, "one JSON line");
  app.add_flag("--trace", o.trace, "print every event received (debugging)");
  app.add_option("--round-times", o.round_times,
                 "fanout: write each mutation's microseconds from its send to its first delivery, its last "
                 "and its answer, a line each, to this file");
  CLI11_PARSE(app, argc, argv);
  if (o.url.empty() == o.server.empty() && !o.stdio) {
    std::cerr << "give exactly one of --url and --server\n";
    return 2;
  }
  // Thousands of sessions need thousands of sockets, here and in the server
  // (which inherits the limit).
  rlimit files{};
  ::getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &files);
  try {
    if (o.stdio && (o.server.empty() || (o.mode == "fanout" && o.sessions != 1)))
      throw std::runtime_error("--stdio needs --server and carries one session (-k 1)");
    std::optional<server_process> proc;
    pid_t pid = static_cast<pid_t>(o.server_pid);
    // One thread and nothing posted from others: the scheduler and the
    // reactor need no locks (the load client must stay cheap).
    net::io_context io(BOOST_ASIO_CONCURRENCY_HINT_UNSAFE);
    connector conn;
    endpoint ep;
    if (o.stdio) {
      proc.emplace(o.server, server_process::stdio_tag{});
      int to_server = -1, from_server = -1;
      proc->take_stdio(to_server, from_server);
      conn.stdio = std::make_shared<stdio_session>(io.get_executor(), to_server, from_server);
      pid = proc->pid();
    } else {
      if (!o.server.empty()) {
        proc.emplace(o.server, std::chrono::seconds(30));
        o.url = proc->url();
        pid = proc->pid();
      }
      ep = endpoint::parse(o.url);
      if (!o.bearer_token.empty())
        ep.extra_headers = "Authorization: Bearer " + o.bearer_token + "\r\n";
      conn.ep = &ep;
    }
    result r;
    std::exception_ptr failure;
    std::unique_ptr<fanout> f;
    if (o.mode == "fanout")
      f = std::make_unique<fanout>(io, conn, o, pid);
    net::co_spawn(
      io,
      [&]() -> task<void> {
        if (conn.stdio)
          co_await conn.stdio->open("cafmcp-load");
        if (f)
          co_await f->run(r);
        else
          co_await request_rate(conn, o, pid, r);
      },
      [&](std::exception_ptr e) {
        failure = e;
        conn.finish(); // a failed run must not leave the stdio reader waiting
      });
    io.run();
    if (failure)
      std::rethrow_exception(failure);
    report(o, r, proc ? proc->messages() : std::vector<std::string>{});
    bool clean = r.error.empty() && r.lost == 0 && r.duplicated == 0 && r.out_of_order == 0;
    return clean ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "cafmcp-load: " << e.what() << "\n";
    return 2;
  }
}

#pragma once
// The request-rate run: C clients calling tools/call test_simple_text back
// to back for a fixed time.
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "connector.hpp"
#include "load_run.hpp"
#include "signal.hpp"

namespace cafmcp::load {

inline task<void> request_rate(connector& conn, const options& o, pid_t pid, result& r) {
  using clock_type = std::chrono::steady_clock;
  auto ex = co_await net::this_coro::executor;
  std::vector<std::shared_ptr<rpc_session>> clients;
  for (int c = 0; c < o.clients; ++c)
    clients.push_back(co_await conn.open("cafmcp-load-requests"));
  r.rss_idle = server_rss(pid);
  std::vector<std::uint32_t> latencies;
  int running = o.clients;
  signal done(ex);
  std::string error;
  auto cpu0 = cpu_seconds();
  auto server_cpu0 = server_cpu(pid);
  auto t0 = clock_type::now();
  auto until =
    t0 + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(o.duration));
  for (auto& c : clients)
    net::co_spawn(
      ex,
      [&, s = c.get()]() -> task<void> {
        try {
          while (clock_type::now() < until) {
            auto a = clock_type::now();
            if (!co_await s->tool_succeeds("test_simple_text"))
              throw std::runtime_error("test_simple_text failed");
            latencies.push_back(static_cast<std::uint32_t>(
              std::chrono::duration_cast<std::chrono::microseconds>(clock_type::now() - a).count()));
            ++r.requests;
          }
        } catch (const std::exception& e) {
          error = e.what();
        }
        --running;
        done.notify();
      },
      net::detached);
  while (running > 0)
    co_await done.wait_until(clock_type::time_point::max());
  r.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  r.client_cpu = cpu_seconds() - cpu0;
  r.server_cpu = server_cpu(pid) - server_cpu0;
  r.rss_end = server_rss(pid);
  r.error = error.empty() && r.requests == 0 ? "no request completed" : error;
  r.latency = summarize(latencies);
  for (auto& c : clients)
    conn.done_with(*c);
  conn.finish();
}

} // namespace cafmcp::load

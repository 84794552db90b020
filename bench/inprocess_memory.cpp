// Memory per idle in-process session: N sessions initialized on one server
// (each behind a counting transport end), server RSS before and after.
//
//   bench-inprocess-memory [sessions=10000] [--json]
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

#include "cafmcp/server.hpp"

#include "counting_outbound.hpp"
#include "proc_rss.hpp"

using namespace cafmcp;

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  bool json = argc > 2 && std::strcmp(argv[2], "--json") == 0;
  server_options o;
  o.resources = capability_mode::on;
  server srv(o);
  bench::delivery_counter counter;
  std::vector<std::shared_ptr<connection>> conns;
  conns.reserve(static_cast<std::size_t>(n));
  // Warm the server up with one session first so that one-time costs
  // (actor system, registry) stay out of the per-session figure.
  auto warm = srv.connect(std::make_shared<bench::counting_outbound>(counter));
  warm->receive(
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}})");
  bench::counting_outbound::target_ = 1;
  counter.wait_for(1);
  long before = bench::rss_kib();
  // Sessions arrive in batches, each answered before the next, as clients
  // connect: all 10,000 initialize messages queued at once leave transient
  // memory in glibc's per-thread arenas that no idle session holds (0.75 KiB
  // per session once opening a session got fast; with one arena,
  // MALLOC_ARENA_MAX=1, the same burst read 3.5 KiB).
  constexpr int batch = 100;
  for (int i = 0; i < n; ++i) {
    conns.push_back(srv.connect(std::make_shared<bench::counting_outbound>(counter)));
    conns.back()->receive(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}})");
    conns.back()->receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    if ((i + 1) % batch == 0 || i + 1 == n) {
      auto answered = 2 + static_cast<std::uint64_t>(i); // the warm-up's and each of these
      bench::counting_outbound::target_ = answered;
      if (!counter.wait_for(answered)) {
        std::fprintf(stderr, "sessions did not start\n");
        return 1;
      }
    }
  }
  while (srv.stats().sessions < static_cast<std::size_t>(n)) {
  }
  long after = bench::rss_kib();
  double per = static_cast<double>(after - before) / n;
  if (json)
    std::printf("{\"bench\":\"inprocess_memory\",\"sessions\":%d,\"rss_kib_before\":%ld,\"rss_kib_after\":%"
                "ld,\"kib_per_session\":%.2f}\n",
                n, before, after, per);
  else
    std::printf("%d idle in-process sessions: RSS %ld -> %ld KiB, %.2f KiB per session\n", n, before, after,
                per);
  for (auto& c : conns)
    c->close();
  return 0;
}

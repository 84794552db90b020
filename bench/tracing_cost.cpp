// What tracing costs the notification path: the same fan-out with tracing
// off, on (always_on, batch processor), and on at ratio 0.01, reported as
// throughput ratios against "off" measured in the same run.
#include <cstdio>
#include <memory>
#include <vector>

#include "cafmcp/otel/mcp_tracer.hpp"
#include "cafmcp/otel/tracer.hpp"
#include "cafmcp/server.hpp"
#include "counting_outbound.hpp"
#include "hot_resource.hpp"
#include "socket_sink.hpp"

using namespace cafmcp;
using clock_type = std::chrono::steady_clock;

namespace {

struct discard_exporter : otel::span_exporter {
  std::atomic<std::uint64_t> spans{0};
  bool export_spans(const std::vector<otel::span_data>& b) override {
    spans += b.size();
    return true;
  }
};

struct result {
  double deliveries_per_s;
  std::uint64_t spans_exported;
  std::size_t spans_dropped;
};

result run(std::shared_ptr<otel::sampler> sampler, int sessions, int updates, bool sockets) {
  server_options o;
  o.resources = capability_mode::on;
  std::shared_ptr<discard_exporter> exporter;
  std::shared_ptr<otel::batch_span_processor> processor;
  if (sampler) {
    exporter = std::make_shared<discard_exporter>();
    processor = std::make_shared<otel::batch_span_processor>(exporter);
    auto provider = std::make_shared<otel::tracer_provider>(otel::resource::with_service("bench"),
                                                            sampler, processor);
    o.tracer = otel::make_mcp_tracer(provider);
  }
  server srv(o);
  srv.add_resource(bench::hot_resource()).get();

  bench::delivery_counter counter;
  bench::socket_sink sink(counter);
  bench::counting_outbound::target_ = 2ull * sessions;
  if (sockets)
    sink.start();
  std::vector<std::shared_ptr<connection>> conns;
  for (int i = 0; i < sessions; ++i) {
    std::shared_ptr<outbound> out;
    if (sockets)
      out = std::make_shared<bench::socket_outbound>(sink.add(), counter);
    else
      out = std::make_shared<bench::counting_outbound>(counter);
    conns.push_back(srv.connect(out));
    conns.back()->receive(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}})");
    conns.back()->receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    conns.back()->receive(R"({"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"bench://hot"}})");
  }
  if (!counter.wait_for(2ull * sessions)) // initialize and subscribe answered
    std::fprintf(stderr, "bench: sessions did not start\n");
  while (srv.stats().subscriptions < static_cast<std::size_t>(sessions) || srv.stats().sessions < static_cast<std::size_t>(sessions)) {
  }
  auto base = counter.frames.load();
  auto total = base + static_cast<std::uint64_t>(sessions) * updates;
  bench::counting_outbound::target_ = total;
  auto t0 = clock_type::now();
  for (int i = 0; i < updates; ++i)
    srv.resource_updated(bench::hot_uri);
  if (!counter.wait_for(total))
    std::fprintf(stderr, "bench: only %llu of %llu deliveries\n",
                 static_cast<unsigned long long>(counter.frames.load() - base),
                 static_cast<unsigned long long>(total - base));
  double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
  result res{static_cast<double>(total - base) / secs, 0, 0};
  if (processor) {
    processor->force_flush();
    res.spans_exported = exporter->spans;
    res.spans_dropped = processor->dropped();
  }
  return res;
}

} // namespace

int main(int argc, char** argv) {
  int sessions = argc > 1 ? std::atoi(argv[1]) : 100;
  int updates = argc > 2 ? std::atoi(argv[2]) : 2000;
  std::printf("tracing cost: %d subscribed sessions, %d resources/updated broadcasts each run\n",
              sessions, updates);
  for (bool sockets : {false, true}) {
    std::printf("\nsink: %s\n", sockets ? "one write(2) per delivery into a socket (as stdio and SSE do)"
                                        : "in-memory counter (no transport work: the harshest ratio)");
    run(nullptr, sessions, updates / 4, sockets); // warm-up
    auto off = run(nullptr, sessions, updates, sockets);
    auto on = run(otel::always_on(), sessions, updates, sockets);
    auto ratio = run(otel::parent_based(otel::trace_id_ratio(0.01)), sessions, updates, sockets);
    std::printf("%-28s %14s %10s %14s %12s\n", "configuration", "deliveries/s", "vs off", "spans exported", "dropped");
    auto row = [&](const char* name, const result& r) {
      std::printf("%-28s %14.0f %9.2fx %14llu %12zu\n", name, r.deliveries_per_s, r.deliveries_per_s / off.deliveries_per_s,
                  static_cast<unsigned long long>(r.spans_exported), r.spans_dropped);
    };
    row("tracing off", off);
    row("always_on + batch", on);
    row("parentbased ratio 0.01", ratio);
    std::printf("always_on costs %.1f%% of throughput (target: at most 15%%)\n",
                100.0 * (1.0 - on.deliveries_per_s / off.deliveries_per_s));
  }
  return 0;
}

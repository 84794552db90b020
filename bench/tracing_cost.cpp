// What tracing costs the notification path: the same fan-out with tracing
// off, on (always_on, batch processor), and on at ratio 0.01, reported as
// throughput ratios against "off" measured in the same run.
#include <algorithm>
#include <cstdio>
#include <memory>
#include <vector>

#include "cafmcp/otel/mcp_tracer.hpp"
#include "cafmcp/otel/otlp_json.hpp"
#include "cafmcp/otel/otlp_protobuf.hpp"
#include "cafmcp/otel/tracer.hpp"
#include "cafmcp/server.hpp"

#include "counting_outbound.hpp"
#include "hot_resource.hpp"
#include "socket_sink.hpp"

using namespace cafmcp;
using clock_type = std::chrono::steady_clock;

namespace {

// Encodes each batch as the OTLP/HTTP exporter would (protobuf, its
// default; or JSON), or only counts it, and discards it: what is measured is the instrumentation, the batch
// processor and the encoding, not a network. When the processor's thread
// cannot keep up, spans are dropped and counted (the "dropped" column).
enum class encoding { none, protobuf, json };

struct discard_exporter : otel::span_exporter {
  explicit discard_exporter(encoding e) : encode(e) {}
  encoding encode;
  std::atomic<std::uint64_t> spans{0}, bytes{0};
  bool export_spans(const std::vector<otel::span_data>& b) override {
    spans += b.size();
    if (encode == encoding::protobuf)
      bytes += otel::encode_otlp_protobuf(resource, "bench", b).size();
    else if (encode == encoding::json)
      bytes += otel::encode_otlp_json(resource, "bench", b).size();
    return true;
  }
  bool export_batch(otel::span_batch& b, otel::deadline) override {
    spans += b.size();
    if (encode == encoding::protobuf)
      otel::encode_otlp_protobuf(buffer, resource, "bench", b);
    else if (encode == encoding::json)
      otel::encode_otlp_json(buffer, resource, "bench", b);
    bytes += buffer.size();
    return true;
  }
  std::string buffer;
  otel::resource resource = otel::resource::with_service("bench");
};

struct result {
  double deliveries_per_s;
  std::uint64_t spans_exported;
  std::size_t spans_dropped;
};

result run(std::shared_ptr<otel::sampler> sampler, int sessions, int updates, bool sockets,
           encoding encode = encoding::protobuf) {
  server_options o;
  o.resources = capability_mode::on;
  std::shared_ptr<discard_exporter> exporter;
  std::shared_ptr<otel::batch_span_processor> processor;
  if (sampler) {
    exporter = std::make_shared<discard_exporter>(encode);
    // Room for a burst's spans (the default 2048 is four broadcasts to 500
    // sessions): the cost measured is that of exporting every span.
    otel::batch_options queue;
    queue.max_queue_size = 1 << 22;
    processor = std::make_shared<otel::batch_span_processor>(exporter, queue);
    auto provider =
      std::make_shared<otel::tracer_provider>(otel::resource::with_service("bench"), sampler, processor);
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
    conns.back()->receive(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}})");
    conns.back()->receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    conns.back()->receive(
      R"({"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"bench://hot"}})");
  }
  if (!counter.wait_for(2ull * sessions)) // initialize and subscribe answered
    std::fprintf(stderr, "bench: sessions did not start\n");
  while (srv.stats().subscriptions < static_cast<std::size_t>(sessions)
         || srv.stats().sessions < static_cast<std::size_t>(sessions)) {
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

// Rounds of off / always_on / ratio back to back, each configuration's
// figure the median of its rounds, and the cost the median of the rounds'
// own ratios: on a shared machine one pair of runs moves by +-10%.
int main(int argc, char** argv) {
  int sessions = argc > 1 ? std::atoi(argv[1]) : 100;
  int updates = argc > 2 ? std::atoi(argv[2]) : 2000;
  int rounds = argc > 3 ? std::max(1, std::atoi(argv[3])) : 5;
  std::printf("tracing cost: %d subscribed sessions, %d resources/updated broadcasts each run, %d rounds\n",
              sessions, updates, rounds);
  auto median = [](std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  for (bool sockets : {false, true}) {
    std::printf("\nsink: %s\n", sockets ? "one write(2) per delivery into a socket (as stdio and SSE do)"
                                        : "in-memory counter (no transport work: the harshest ratio)");
    run(nullptr, sessions, updates / 4, sockets); // warm-up
    std::vector<double> off, on, json, counted, ratio, cost;
    result last_on{}, last_json{}, last_counted{}, last_ratio{};
    // The order of the five runs turns each round, so that no
    // configuration always runs first (a later run in a process measured
    // a few percent slower, whatever it traced).
    for (int r = 0; r < rounds; ++r) {
      double off_rate = 0;
      for (int k = 0; k < 5; ++k) {
        switch ((r + k) % 5) {
          case 0: off_rate = run(nullptr, sessions, updates, sockets).deliveries_per_s; break;
          case 1: last_on = run(otel::always_on(), sessions, updates, sockets); break;
          case 2: last_json = run(otel::always_on(), sessions, updates, sockets, encoding::json); break;
          case 3: last_counted = run(otel::always_on(), sessions, updates, sockets, encoding::none); break;
          default:
            last_ratio = run(otel::parent_based(otel::trace_id_ratio(0.01)), sessions, updates, sockets);
        }
      }
      off.push_back(off_rate);
      on.push_back(last_on.deliveries_per_s);
      json.push_back(last_json.deliveries_per_s);
      counted.push_back(last_counted.deliveries_per_s);
      ratio.push_back(last_ratio.deliveries_per_s);
      cost.push_back(1.0 - on.back() / off.back());
    }
    auto base = median(off);
    std::printf("%-28s %14s %10s %14s %12s\n", "configuration (median)", "deliveries/s", "vs off",
                "spans exported", "dropped");
    auto row = [&](const char* name, double rate, const result* r) {
      std::printf("%-28s %14.0f %9.2fx", name, rate, rate / base);
      if (r)
        std::printf(" %14llu %12zu", static_cast<unsigned long long>(r->spans_exported), r->spans_dropped);
      std::printf("\n");
    };
    row("tracing off", base, nullptr);
    row("always_on, OTLP/protobuf", median(on), &last_on);
    row("always_on, OTLP/JSON", median(json), &last_json);
    row("always_on, counted only", median(counted), &last_counted);
    row("parentbased ratio 0.01", median(ratio), &last_ratio);
    std::printf("always_on (batch processor, OTLP/protobuf encoded) costs %.1f%% of throughput (median of %d "
                "rounds; target: at most 15%%)\n",
                100.0 * median(cost), rounds);
  }
  return 0;
}

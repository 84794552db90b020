// Micro-benchmarks (Google Benchmark): the pieces every notification and
// request passes through. Run: build/bin/cafmcp-micro [--benchmark_filter=...]
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "cafmcp/json_rpc.hpp"
#include "cafmcp/otel/exporter.hpp"
#include "cafmcp/otel/mcp_tracer.hpp"
#include "cafmcp/otel/otlp_json.hpp"
#include "cafmcp/otel/otlp_protobuf.hpp"
#include "cafmcp/otel/tracer.hpp"
#include "cafmcp/server.hpp"
#include "cafmcp/tracing.hpp"
#include "cafmcp/uri_template.hpp"

#include "counting_outbound.hpp"
#include "hot_resource.hpp"

using namespace cafmcp;

namespace {

[[noreturn]] void fail(const char* what) {
  std::fprintf(stderr, "cafmcp-micro: %s\n", what);
  std::exit(1);
}

const std::string tool_call =
  R"({"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"update_resource","arguments":{"uri":"bench://load/d0/u1","text":"v1234"},"_meta":{"progressToken":7}}})";

void json_rpc_parse(benchmark::State& state) {
  for (auto _ : state)
    benchmark::DoNotOptimize(jsonrpc::parse(tool_call));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * tool_call.size()));
}
BENCHMARK(json_rpc_parse);

void json_rpc_serialize_result(benchmark::State& state) {
  json result = {
    {"content", json::array({{{"type", "text"}, {"text", "This is a simple text response for testing."}}})}};
  jsonrpc::request_id id = std::int64_t{42};
  for (auto _ : state)
    benchmark::DoNotOptimize(jsonrpc::serialize_result(id, result));
}
BENCHMARK(json_rpc_serialize_result);

void json_rpc_serialize_notification(benchmark::State& state) {
  json params = {{"uri", "bench://load/d0/u1"}};
  for (auto _ : state)
    benchmark::DoNotOptimize(jsonrpc::serialize_notification("notifications/resources/updated", &params));
}
BENCHMARK(json_rpc_serialize_notification);

// The answer to a bad call (invalid arguments, with the validator's detail).
void json_rpc_serialize_error(benchmark::State& state) {
  jsonrpc::error err{jsonrpc::code::invalid_params, "Invalid arguments for tool update_resource",
                     json{{"errors", json::array({"/text: expected string"})}}};
  std::optional<jsonrpc::request_id> id = jsonrpc::request_id{std::int64_t{42}};
  for (auto _ : state)
    benchmark::DoNotOptimize(jsonrpc::serialize_error(id, err));
}
BENCHMARK(json_rpc_serialize_error);

void uri_template_match(benchmark::State& state) {
  uri_template t("file:///projects/{project}/files/{+path}{?rev}");
  const std::string uri = "file:///projects/cafmcp/files/src/actors/notifier.cpp?rev=abc123";
  for (auto _ : state)
    benchmark::DoNotOptimize(t.match(uri));
}
BENCHMARK(uri_template_match);

void uri_template_no_match(benchmark::State& state) {
  uri_template t("file:///projects/{project}/files/{+path}{?rev}");
  const std::string uri = "file:///elsewhere/cafmcp/files/src/actors/notifier.cpp";
  for (auto _ : state)
    benchmark::DoNotOptimize(t.match(uri));
}
BENCHMARK(uri_template_no_match);

// One resources/updated broadcast through the notifier to N in-process
// sessions (subscribed, each behind a counting transport end).
void notifier_broadcast(benchmark::State& state) {
  const auto n = static_cast<int>(state.range(0));
  server_options o;
  o.resources = capability_mode::on;
  server srv(o);
  srv.add_resource(bench::hot_resource()).get();
  bench::delivery_counter counter;
  bench::counting_outbound::target_ = 2ull * static_cast<std::uint64_t>(n);
  std::vector<std::shared_ptr<connection>> conns;
  for (int i = 0; i < n; ++i) {
    conns.push_back(srv.connect(std::make_shared<bench::counting_outbound>(counter)));
    conns.back()->receive(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}})");
    conns.back()->receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    conns.back()->receive(
      R"({"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"bench://hot"}})");
  }
  if (!counter.wait_for(2ull * static_cast<std::uint64_t>(n)))
    fail("sessions did not start"); // not a skip: the smoke run must fail
  const int batch = 16; // broadcasts per timed step: keeps the waiting thread's wake-ups out of the figure
  for (auto _ : state) {
    auto target = counter.frames.load() + static_cast<std::uint64_t>(n) * batch;
    bench::counting_outbound::target_ = target;
    for (int b = 0; b < batch; ++b)
      srv.resource_updated(bench::hot_uri);
    if (!counter.wait_for(target))
      fail("deliveries missing");
  }
  state.SetItemsProcessed(state.iterations() * n * batch); // deliveries
  for (auto& c : conns)
    c->close();
}
BENCHMARK(notifier_broadcast)->Arg(10)->Arg(100)->Arg(1000)->Unit(benchmark::kMicrosecond)->UseRealTime();

struct discard_exporter : otel::span_exporter {
  bool export_spans(const std::vector<otel::span_data>&) override { return true; }
};

void span_start_end(benchmark::State& state) {
  std::shared_ptr<tracer> t;
  if (state.range(0)) {
    auto processor = std::make_shared<otel::batch_span_processor>(std::make_shared<discard_exporter>());
    auto provider = std::make_shared<otel::tracer_provider>(otel::resource::with_service("bench"),
                                                            otel::always_on(), processor);
    t = otel::make_mcp_tracer(provider);
  }
  for (auto _ : state) {
    auto s = start_span(t.get(), "resources/updated", span_kind::producer);
    if (s)
      s->set_attribute("mcp.resource.uri", std::string("bench://hot"));
    benchmark::DoNotOptimize(s);
  }
  state.SetLabel(state.range(0) ? "tracing on (always_on, batch)" : "tracing off");
}
BENCHMARK(span_start_end)->Arg(0)->Arg(1);

// What the exporter's thread pays per send span of a broadcast: a group of
// N members encoded as OTLP/JSON, against the same spans expanded first.
otel::span_group send_group(int members) {
  otel::span_group g;
  g.common.context = {otel::random_trace_id(), {}, 1, {}, false};
  g.common.parent = otel::random_span_id();
  g.common.name = "send notifications/resources/updated";
  g.common.kind = otel::span_kind::client;
  g.common.attributes = {{"mcp.method.name", std::string("notifications/resources/updated")},
                         {"mcp.resource.uri", std::string("bench://hot")}};
  g.member_key = "mcp.session.id";
  // As the notifier records them: back to back, each send's start the one
  // before's end, a few microseconds apart.
  for (std::uint64_t i = 0; i < static_cast<std::uint64_t>(members); ++i)
    g.add(1796646476132650245ull + i * 2'955, 1796646476132650245ull + (i + 1) * 2'955,
          "c16160e6f1f85e7f6dd46d59091a0495");
  return g;
}

void otlp_encode_send_group(benchmark::State& state) {
  auto res = otel::resource::with_service("bench");
  otel::span_batch batch;
  batch.groups.push_back(std::make_unique<otel::span_group>(send_group(static_cast<int>(state.range(0)))));
  std::string body; // kept, as the exporters keep theirs
  for (auto _ : state) {
    otel::encode_otlp_json(body, res, "cafmcp", batch);
    benchmark::DoNotOptimize(body.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(otlp_encode_send_group)->Arg(500);

void otlp_protobuf_encode_send_group(benchmark::State& state) {
  auto res = otel::resource::with_service("bench");
  otel::span_batch batch;
  batch.groups.push_back(std::make_unique<otel::span_group>(send_group(static_cast<int>(state.range(0)))));
  std::string body;
  for (auto _ : state) {
    otel::encode_otlp_protobuf(body, res, "cafmcp", batch);
    benchmark::DoNotOptimize(body.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
  state.counters["bytes_per_span"] = static_cast<double>(body.size()) / static_cast<double>(state.range(0));
}
BENCHMARK(otlp_protobuf_encode_send_group)->Arg(500);

void otlp_encode_expanded_spans(benchmark::State& state) {
  auto res = otel::resource::with_service("bench");
  auto spans = send_group(static_cast<int>(state.range(0))).expand();
  for (auto _ : state)
    benchmark::DoNotOptimize(otel::encode_otlp_json(res, "cafmcp", spans));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(otlp_encode_expanded_spans)->Arg(500);

// Request spans, as the session records a tools/call: one span each, with
// the six attributes every request span carries (mcp.method.name, the
// session, the protocol version, the request id, the transport, the tool).
std::vector<otel::span_data> request_spans(int n) {
  std::vector<otel::span_data> spans(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < spans.size(); ++i) {
    auto& s = spans[i];
    s.context = {otel::random_trace_id(), otel::random_span_id(), 1, {}, false};
    s.name = "tools/call update_resource";
    s.kind = otel::span_kind::server;
    s.start_unix_nano = 1796646476132650245ull + i * 31'000;
    s.end_unix_nano = s.start_unix_nano + 24'000;
    s.attributes = {{"mcp.method.name", std::string("tools/call")},
                    {"mcp.session.id", std::string("80c454880bff161641d7fcbb2c297653")},
                    {"mcp.protocol.version", std::string("2025-11-25")},
                    {"jsonrpc.request.id", std::to_string(i + 2)},
                    {"network.transport", std::string("tcp")},
                    {"gen_ai.tool.name", std::string("update_resource")}};
  }
  return spans;
}

// Into a body kept from one batch to the next, as the exporters encode: a
// fresh string each time measured the kernel's page faults on it.
template <class Encode>
void encode_request_spans(benchmark::State& state, Encode encode) {
  auto res = otel::resource::with_service("bench");
  otel::span_batch batch;
  batch.spans = request_spans(static_cast<int>(state.range(0)));
  std::string body;
  for (auto _ : state) {
    encode(body, res, batch);
    benchmark::DoNotOptimize(body.data());
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}

void otlp_encode_request_spans(benchmark::State& state) {
  encode_request_spans(state, [](std::string& body, const otel::resource& res, const otel::span_batch& batch) {
    otel::encode_otlp_json(body, res, "cafmcp", batch);
  });
}
BENCHMARK(otlp_encode_request_spans)->Arg(500);

void otlp_protobuf_encode_request_spans(benchmark::State& state) {
  encode_request_spans(state, [](std::string& body, const otel::resource& res, const otel::span_batch& batch) {
    otel::encode_otlp_protobuf(body, res, "cafmcp", batch);
  });
}
BENCHMARK(otlp_protobuf_encode_request_spans)->Arg(500);

} // namespace

BENCHMARK_MAIN();

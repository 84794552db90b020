// What one span costs: start + a few attributes + end, through the library
// and through the MCP hook, with tracing disabled, sampled out, and on (a
// batch processor feeding an exporter that discards). Prints ns per span.
#include <chrono>
#include <cstdio>

#include "cafmcp/otel/mcp_tracer.hpp"
#include "cafmcp/otel/tracer.hpp"

using namespace cafmcp::otel;
using clock_type = std::chrono::steady_clock;

namespace {

struct discard_exporter : span_exporter {
  bool export_spans(const std::vector<span_data>&) override { return true; }
};

std::shared_ptr<tracer_provider> provider(std::shared_ptr<sampler> s) {
  batch_options o;
  o.max_queue_size = 1 << 16;
  return std::make_shared<tracer_provider>(
    resource::with_service("bench"), std::move(s),
    std::make_shared<batch_span_processor>(std::make_shared<discard_exporter>(), o));
}

template <class F>
double ns_per(int n, F&& f) {
  auto t0 = clock_type::now();
  for (int i = 0; i < n; ++i)
    f();
  return std::chrono::duration<double, std::nano>(clock_type::now() - t0).count() / n;
}

double library(const tracer& t, int n) {
  return ns_per(n, [&] {
    auto s = t.start("tools/call get-weather");
    s.set_attribute("mcp.method.name", "tools/call");
    s.set_attribute("jsonrpc.request.id", std::int64_t{7});
  });
}

double hook(cafmcp::tracer* t, int n) {
  return ns_per(n, [&] {
    auto s = cafmcp::start_span(t, "tools/call get-weather", cafmcp::span_kind::server);
    if (s) {
      s->set_attribute("mcp.method.name", std::string("tools/call"));
      s->set_attribute("jsonrpc.request.id", std::int64_t{7});
    }
  });
}

} // namespace

int main() {
  const int n = 200000;
  auto on = provider(always_on());
  auto sampled_out = provider(parent_based(trace_id_ratio(0.0)));
  auto on_hook = make_mcp_tracer(on);
  auto out_hook = make_mcp_tracer(sampled_out);
  for (int round = 0; round < 2; ++round) { // the first round warms caches and the allocator
    double lib_off = library(tracer(), n), lib_out = library(sampled_out->get_tracer("b"), n);
    double lib_on = library(on->get_tracer("b"), n / 4);
    on->force_flush();
    double hook_off = hook(nullptr, n), hook_out = hook(out_hook.get(), n),
           hook_on = hook(on_hook.get(), n / 4);
    on->force_flush();
    if (round == 1)
      std::printf("ns per span (start, 2 attributes, end)\n"
                  "  library: disabled %.1f, sampled out %.1f, on %.1f\n"
                  "  mcp hook: null %.1f, sampled out %.1f, on %.1f\n",
                  lib_off, lib_out, lib_on, hook_off, hook_out, hook_on);
  }
  auto* batch = dynamic_cast<batch_span_processor*>(&on->processor());
  std::printf("  (batch processor: %zu exported, %zu dropped)\n", batch->exported(), batch->dropped());
}

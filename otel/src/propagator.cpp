#include "cafmcp/otel/propagator.hpp"

namespace cafmcp::otel {

void inject(const span_context& ctx, text_map_carrier& carrier) {
  if (!ctx.valid())
    return;
  carrier.set(traceparent_key, format_traceparent(ctx));
  if (!ctx.tracestate.empty())
    carrier.set(tracestate_key, ctx.tracestate);
}

std::optional<span_context> extract(const text_map_carrier& carrier) {
  auto tp = carrier.get(traceparent_key);
  if (tp.empty())
    return std::nullopt;
  return parse_traceparent(tp, carrier.get(tracestate_key));
}

} // namespace cafmcp::otel

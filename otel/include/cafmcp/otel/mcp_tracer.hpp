#pragma once
// cafmcp's tracing hook (include/cafmcp/tracing.hpp) on top of this
// library: what server_options::tracer takes.
#include <memory>

#include "cafmcp/otel/tracer.hpp"
#include "cafmcp/tracing.hpp"

namespace cafmcp::otel {

/// nullptr for a null provider (tracing disabled) or one whose sampler can
/// never sample (always_off), so tracing off costs the core one null check.
/// Spans: `set_error(type, description)` sets `error.type` and status ERROR
/// with that description; `context()` is the W3C traceparent/tracestate;
/// an empty parent starts a root (subject to the sampler). The hook hands
/// every parent over as a traceparent string, so a local parent cannot be
/// told from a remote one: both are exported as remote (OTLP flags 0x200),
/// a bit no common viewer shows.
std::shared_ptr<cafmcp::tracer> make_mcp_tracer(std::shared_ptr<tracer_provider> provider,
                                                std::string scope = "cafmcp");

} // namespace cafmcp::otel

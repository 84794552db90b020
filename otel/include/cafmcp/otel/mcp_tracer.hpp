#pragma once
// cafmcp's tracing hook (include/cafmcp/tracing.hpp) on top of this
// library: what server_options::tracer takes.
#include <memory>

#include "cafmcp/otel/tracer.hpp"
#include "cafmcp/tracing.hpp"

namespace cafmcp::otel {

/// nullptr for a null provider, so tracing off costs the core one null check.
std::shared_ptr<cafmcp::tracer> make_mcp_tracer(std::shared_ptr<tracer_provider> provider,
                                                std::string scope = "cafmcp");

} // namespace cafmcp::otel

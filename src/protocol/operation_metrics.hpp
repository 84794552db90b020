#pragma once
// What `mcp.server.operation.duration` (the OpenTelemetry MCP semantic
// conventions' histogram) records per request: the method, bounded to the
// methods MCP defines (a client cannot mint series), and on failure
// `error.type`, the same value the request's span carries.
#include <string>
#include <string_view>

#include "protocol/dispatch.hpp"

namespace cafmcp::protocol {

/// `method` when MCP defines it as a request, else "_OTHER" (OpenTelemetry's
/// spelling for a value outside a known set).
std::string_view metric_method_name(std::string_view method);

/// How a request ended, as `error.type`: the JSON-RPC error code as text,
/// "tool_error" for a result with isError, "" for success.
std::string error_type_of(const outcome& result);

} // namespace cafmcp::protocol

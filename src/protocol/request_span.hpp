#pragma once
// Spans for MCP requests, following the OpenTelemetry MCP semantic
// conventions: a SERVER span named `{mcp.method.name} {target}` whose
// parent is the trace context the client put in `params._meta`.
#include <memory>
#include <string>

#include "cafmcp/json_rpc.hpp"
#include "cafmcp/tracing.hpp"

#include "protocol/dispatch.hpp"

namespace cafmcp::protocol {

/// `params._meta.traceparent` / `tracestate` (SEP-414), or empty.
trace_context trace_context_from_meta(const json& params);

struct request_span_facts {
  std::string session_id;
  std::string protocol_version;            // empty before initialize
  const char* network_transport = nullptr; // "pipe", "tcp"; null: unknown
};

/// nullptr when `t` is null (tracing off).
std::unique_ptr<span> start_request_span(tracer* t, const jsonrpc::request& req,
                                         const request_span_facts& facts);

/// Records how the request ended: `error.type` and `rpc.response.status_code`
/// for a JSON-RPC error, `error.type = tool_error` for an isError result.
void finish_request_span(span& s, const outcome& result);

/// Adds `_meta.traceparent`/`tracestate` to a notification's params (once,
/// before it is serialized for every receiver).
void inject_trace_context(json& notification, const trace_context& ctx);

} // namespace cafmcp::protocol

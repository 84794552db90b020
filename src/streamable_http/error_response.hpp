#pragma once
// An HTTP error whose body is a JSON-RPC error: how the router refuses a
// request and how a session answers a request it can no longer serve. One
// place, so every refusal carries the same headers and body shape.
#include <optional>
#include <string>

#include "cafmcp/json_rpc.hpp"

#include "streamable_http/http_conn.hpp"

namespace cafmcp::http {

/// Answers `status` on `reply` with a JSON-RPC error saying `message` (for
/// request `id` when known). The JSON-RPC code defaults from the status
/// (400: -32600, else -32000). `headers`: extra header lines ("Name: v\r\n").
void answer_error(http_conn& reply, int status, const std::string& message,
                  const std::optional<jsonrpc::request_id>& id, const std::string& headers = {},
                  std::optional<int> code = std::nullopt);

} // namespace cafmcp::http

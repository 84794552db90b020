#pragma once
// SEP-2243 (2026-07-28) custom headers: a tool's inputSchema may mark a
// parameter with `x-mcp-header: "Region"`; a client calling it over HTTP
// mirrors the argument into `Mcp-Param-Region`, so an intermediary can
// route on it without reading the body. The server reads the body, so it
// checks that the two agree: an intermediary may have acted on the header.
// Pure: the transport hands over the headers, the tool's schema decides.
#include <map>
#include <optional>
#include <string>

#include "cafmcp/json.hpp"
#include "cafmcp/json_rpc.hpp"

namespace cafmcp::protocol {

/// `Mcp-Param-*` headers of one request: the name after the prefix, lower-
/// cased (header names are case-insensitive) -> the raw value.
using param_headers = std::map<std::string, std::string>;

/// -32020 HeaderMismatch (HTTP 400) when an annotated argument present in
/// `arguments` has no header, a header whose `=?base64?...?=` form is not
/// valid Base64, or a value that differs from the body's. An argument that
/// is absent or null expects no header. Annotations are read only along
/// `properties` chains (the statically reachable ones) on string, integer,
/// number and boolean parameters.
std::optional<jsonrpc::error> check_param_headers(const json& input_schema, const json& arguments,
                                                  const param_headers& headers);

/// The header value as the client meant it: surrounding spaces and tabs
/// dropped, the Base64 form decoded (strictly: padded, standard alphabet);
/// nothing when that form is invalid. Anything else is literal.
std::optional<std::string> decode_param_header(std::string_view raw);

} // namespace cafmcp::protocol

#pragma once
// The MCP lifecycle as pure functions: version negotiation, the
// capabilities a server really offers, the initialize result, and the
// per-session phase rules.
#include <optional>
#include <string>
#include <string_view>

#include "cafmcp/json.hpp"
#include "cafmcp/json_rpc.hpp"
#include "cafmcp/server_options.hpp"

#include "protocol/registry.hpp"

namespace cafmcp::protocol {

/// The requested version when we speak it, else our latest (the spec's rule).
std::string negotiate_version(std::string_view requested);

/// ServerCapabilities derived from the options and what is registered now.
json server_capabilities(const server_options& opts, const registry& reg);

/// The InitializeResult for a client asking for `requested`.
json initialize_result(const server_options& opts, const registry& reg, std::string_view requested);

/// Checks initialize params: protocolVersion (string), capabilities
/// (object), clientInfo (object with name and version strings).
std::optional<jsonrpc::error> check_initialize_params(const json& params);

enum class phase {
  awaiting_initialize, // only initialize and ping are served
  initializing,        // initialize answered, `initialized` not yet seen
  operating,           // notifications flow
};

/// Whether a request may be served in `p` (ping always; initialize only
/// first; everything else once initialize has been answered). The error
/// says why not.
std::optional<jsonrpc::error> admit_request(phase p, std::string_view method);

} // namespace cafmcp::protocol

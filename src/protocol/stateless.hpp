#pragma once
// The 2026-07-28 revision's per-request rules, as pure functions: which
// requests are stateless (their `_meta` names the revision), what that
// `_meta` must hold, `server/discover`, the methods the revision removed,
// and how results and errors differ on that wire (resultType, caching
// hints, resource-not-found as -32602). The session actor asks these; the
// 2025-11-25 path never sees them.
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "cafmcp/json.hpp"
#include "cafmcp/json_rpc.hpp"
#include "cafmcp/request_context.hpp"
#include "cafmcp/server_options.hpp"

#include "protocol/registry.hpp"

namespace cafmcp::protocol {

inline constexpr std::string_view meta_protocol_version = "io.modelcontextprotocol/protocolVersion";
inline constexpr std::string_view meta_client_capabilities = "io.modelcontextprotocol/clientCapabilities";
inline constexpr std::string_view meta_client_info = "io.modelcontextprotocol/clientInfo";
inline constexpr std::string_view meta_log_level = "io.modelcontextprotocol/logLevel";
inline constexpr std::string_view meta_server_info = "io.modelcontextprotocol/serverInfo";
inline constexpr std::string_view meta_subscription_id = "io.modelcontextprotocol/subscriptionId";

/// True when the request's `params._meta` carries a protocol version: it is
/// served statelessly (whatever the version says; a wrong one is refused).
bool is_stateless_request(const json& params);

/// What a stateless request says about its client.
struct request_meta {
  std::string protocol_version;
  json client_capabilities = json::object();
  json client_info;               // null when absent (a SHOULD, never required)
  std::optional<log_level> level; // no logging when absent
};

/// Reads and checks `_meta`: -32602 when it, its protocolVersion or its
/// clientCapabilities is missing or malformed; -32022 (data: supported,
/// requested) for a version we do not serve statelessly.
std::variant<request_meta, jsonrpc::error> read_request_meta(const json& params);

/// Methods of earlier revisions the stateless wire no longer has
/// (initialize, ping, logging/setLevel, resources/(un)subscribe): -32601.
bool removed_in_stateless(std::string_view method);

/// The `server/discover` result (capabilities from what is registered now).
json discover_result(const server_options& opts, const registry& reg);

/// A result as the stateless wire wants it: `resultType` ("complete" unless
/// the handler asked for input) and, on list/read/discover results, the
/// caching hints `ttlMs` and `cacheScope` from the options.
/// `per_caller`: the request came from a verified caller, whose scopes
/// shaped the result: it is never cacheScope "public".
void finish_stateless_result(std::string_view method, json& result, const server_options& opts,
                             bool per_caller = false);

/// Errors whose code changed in 2026-07-28 (resource not found: -32602).
jsonrpc::error stateless_error(jsonrpc::error err);

/// -32021 naming the capability (`data.requiredCapabilities: {<name>: {}}`).
jsonrpc::error missing_client_capability(std::string_view capability);

} // namespace cafmcp::protocol

#pragma once
// What the server actor does with a request, as a pure function of the
// registry: either the answer right away (lists, static reads, every
// validation error), or a job to run on a worker (anything that calls an
// author's handler, which may be slow or block).
#include <functional>
#include <string_view>
#include <variant>

#include "cafmcp/json.hpp"
#include "cafmcp/json_rpc.hpp"
#include "cafmcp/request_context.hpp"
#include "cafmcp/server_options.hpp"

#include "protocol/registry.hpp"

namespace cafmcp::protocol {

/// A result object or a JSON-RPC error.
using outcome = std::variant<json, jsonrpc::error>;

/// Work for a worker; owns copies of everything it needs (the registry may
/// change while it runs).
struct job {
  std::function<outcome(request_context&)> run;
  /// From tool::quick: the handler neither blocks nor asks the client, so
  /// it may run on the session's actor.
  bool quick = false;
  /// Instead of `run`, an asynchronous tool (tool::async_handler; quick):
  /// starts the handler and returns at once; the outcome comes later, once,
  /// through `answer`, from any thread.
  std::function<void(request_context&, std::function<void(outcome)> answer)> start;
};

using dispatch_result = std::variant<outcome, job>;

/// Methods served from the registry: resources/list, resources/read,
/// resources/templates/list, tools/list, tools/call, prompts/list,
/// prompts/get, completion/complete. Anything else: -32601.
/// `caller` (HTTP with a token verifier; null otherwise): lists show only
/// what its scopes allow, and a call, read or get of anything else is
/// refused with insufficient_scope.
/// tools/call moves its `arguments` out of `params` into the job (the
/// request is done with them; its name and `_meta` stay): a copy of the
/// arguments' tree was several allocations of every call.
dispatch_result dispatch(const registry& reg, const server_options& opts, std::string_view method,
                         json& params, const auth::identity* caller = nullptr);
/// The same on a copy of `params`.
dispatch_result dispatch(const registry& reg, const server_options& opts, std::string_view method,
                         const json& params, const auth::identity* caller = nullptr);

/// tools/call on its own, for a caller that holds a table of tools (a
/// session, actors/published_tools.hpp): the tool `params` names in
/// `tools` (null: none, or no string name), and the call of it (`tool`
/// null: answered as an unknown tool). As dispatch's: `arguments` moved out.
const tool_entry* named_tool(const tool_map& tools, const json& params);
const tool_entry* named_tool(const tool_index& tools, const json& params);
dispatch_result call_tool(const tool_entry* tool, json& params, const auth::identity* caller);

jsonrpc::error resource_not_found(const std::string& uri);

/// Subscribing to `uri` (a resource, a URI a template matches, or the
/// template's text) needs the scopes reading it needs: insufficient_scope
/// otherwise. Nothing for a caller allowed (or none: no verifier).
std::optional<jsonrpc::error> subscription_refusal(const registry& reg, const std::string& uri,
                                                   const auth::identity* caller);

} // namespace cafmcp::protocol

#pragma once
// What session.cpp (the 2025-11-25 lifecycle and the actor's behaviour) and
// session_stateless.cpp (2026-07-28 requests) share: the ways a session
// actor answers, fails and forwards a request. Internal to the actors.
#include <chrono>
#include <optional>
#include <string>

#include "actors/session.hpp"

namespace cafmcp::actors::session_ops {

using self_ptr = session_actor::stateful_pointer<session_state>;
inline constexpr auto ask_timeout = std::chrono::seconds(30);

jsonrpc::error error_of(int code, std::string message, std::optional<json> data = {});
session_actor handle_of(self_ptr self);
/// The answer to request `id` (the final message of its stream).
void answer(self_ptr self, const jsonrpc::request_id& id, protocol::outcome out);
/// An error answer; with no id, an error response with a null id.
void fail(self_ptr self, const std::optional<jsonrpc::request_id>& id, jsonrpc::error err);
/// Hands the request to the server actor, which answers with reply_atom.
void forward(self_ptr self, jsonrpc::request& req, const std::string& key,
             std::shared_ptr<const session_env> env, json request_state = nullptr);

// -- 2026-07-28 (session_stateless.cpp) ---------------------------------
void serve_stateless(self_ptr self, jsonrpc::request& req, const std::string& key);
/// A stateless request's answer in its revision's shape (others unchanged).
protocol::outcome finish_stateless(self_ptr self, const std::string& key, protocol::outcome out);

} // namespace cafmcp::actors::session_ops

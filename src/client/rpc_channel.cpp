#include "client/rpc_channel.hpp"

#include "cafmcp/client.hpp"
#include "cafmcp/json_rpc.hpp"

#include "foundation/json_member.hpp"

namespace cafmcp::client_core {

std::optional<std::string> rpc_channel::start(const std::string& method, json params,
                                              steady::time_point deadline, completion done,
                                              std::int64_t* id_out) {
  if (pending_.size() >= max_pending_) {
    done(nullptr, rpc_failure{client_error_code::too_many_pending,
                              "too many requests in flight (" + std::to_string(max_pending_) + ")", nullptr});
    return std::nullopt;
  }
  auto id = ++next_id_;
  if (id_out)
    *id_out = id;
  // Empty params are left out, as a request with none.
  auto msg = jsonrpc::request_message(id, method, params.empty() ? json() : std::move(params));
  pending_.emplace(id, entry{method, deadline, std::move(done)});
  return jsonrpc::wire_text(msg);
}

bool rpc_channel::complete(const json& message) {
  if (!message.is_object() || message.contains("method") || !message.contains("id"))
    return false;
  const auto& id = message["id"];
  if (!id.is_number_integer())
    return false;
  auto it = pending_.find(id.get<std::int64_t>());
  if (it == pending_.end())
    return false;
  auto done = std::move(it->second.done);
  pending_.erase(it);
  if (auto e = message.find("error"); e != message.end() && e->is_object()) {
    done(nullptr,
         rpc_failure{member_or(*e, "code", 0), member_or(*e, "message", ""), e->value("data", json())});
  } else if (auto r = message.find("result"); r != message.end()) {
    done(*r, std::nullopt);
  } else {
    done(nullptr, rpc_failure{-32603, "response without result or error", message});
  }
  return true;
}

std::optional<steady::time_point> rpc_channel::expire(steady::time_point now) {
  std::optional<steady::time_point> next;
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.deadline <= now) {
      auto e = std::move(it->second);
      it = pending_.erase(it);
      e.done(nullptr,
             rpc_failure{client_error_code::timeout, "no response to " + e.method + " in time", nullptr});
    } else {
      if (!next || it->second.deadline < *next)
        next = it->second.deadline;
      ++it;
    }
  }
  return next;
}

void rpc_channel::fail_all(const rpc_failure& why) {
  auto all = std::move(pending_);
  pending_.clear();
  for (auto& [id, e] : all)
    e.done(nullptr, why);
}

} // namespace cafmcp::client_core

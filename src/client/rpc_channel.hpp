#pragma once
// JSON-RPC request correlation for the client, without threads or I/O: ids,
// the pending map, deadlines. Owned by the client's dispatcher thread; a
// completion runs inside complete()/expire()/fail_all() and must be quick.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

#include "cafmcp/invocation.hpp"
#include "cafmcp/json.hpp"

namespace cafmcp::client_core {

using steady = std::chrono::steady_clock;
/// The result object, or the failure (then the result is null).
using completion = std::function<void(json result, std::optional<rpc_failure> failure)>;

class rpc_channel {
public:
  explicit rpc_channel(std::size_t max_pending) : max_pending_(max_pending) {}

  /// The request's text to send, or nullopt when too many are pending (then
  /// `done` has been failed already). `id_out` receives the id used.
  std::optional<std::string> start(const std::string& method, json params, steady::time_point deadline,
                                   completion done, std::int64_t* id_out = nullptr);
  /// A response message for one of ours completes it; false for any other
  /// message (an unknown or repeated id is ignored, never a crash).
  bool complete(const json& message);
  /// Fails what passed its deadline; the earliest deadline left, if any.
  std::optional<steady::time_point> expire(steady::time_point now);
  /// Fails every pending request (the connection is gone).
  void fail_all(const rpc_failure& why);
  std::size_t pending() const { return pending_.size(); }

private:
  struct entry {
    std::string method;
    steady::time_point deadline;
    completion done;
  };
  std::size_t max_pending_;
  std::int64_t next_id_ = 0;
  std::map<std::int64_t, entry> pending_;
};

} // namespace cafmcp::client_core

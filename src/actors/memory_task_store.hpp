#pragma once
// Tasks kept in this process: a map under one mutex. Tasks are created
// and polled at the rate of long-running calls, not of notifications, so
// one lock per store costs nothing measurable (and no hot path takes it).
#include <map>
#include <mutex>
#include <unordered_map>

#include "actors/task_store.hpp"

namespace cafmcp::actors {

class memory_task_store final : public task_store {
public:
  std::optional<jsonrpc::error> insert(protocol::task_record r, const task_options& limits) override;
  std::optional<protocol::task_record> find(const std::string& id) override;
  std::optional<protocol::task_record>
  modify(const std::string& id, const std::function<bool(protocol::task_record&)>& change) override;
  std::vector<protocol::task_record> owned_by(const std::string& owner) override;
  std::vector<protocol::task_record> expire(clock::time_point now) override;

private:
  std::mutex mtx_;
  std::unordered_map<std::string, protocol::task_record> tasks_;
  std::unordered_map<std::string, std::size_t> per_owner_;
  // When each task's ttl ends: expire() looks at the front only, so it can
  // run on every request.
  std::multimap<clock::time_point, std::string> by_end_;
};

} // namespace cafmcp::actors

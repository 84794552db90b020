#include "actors/memory_task_store.hpp"

namespace cafmcp::actors {

std::optional<jsonrpc::error> memory_task_store::insert(protocol::task_record r, const task_options& limits) {
  std::lock_guard<std::mutex> g(mtx_);
  if (tasks_.size() >= limits.max_tasks)
    return too_many_tasks(limits.max_tasks);
  if (!r.owner.empty() && per_owner_[r.owner] >= limits.max_tasks_per_owner)
    return too_many_tasks_of_owner(limits.max_tasks_per_owner);
  if (!r.owner.empty())
    ++per_owner_[r.owner];
  by_end_.emplace(r.created + r.ttl, r.id);
  auto id = r.id;
  tasks_.emplace(std::move(id), std::move(r));
  return std::nullopt;
}

std::optional<protocol::task_record> memory_task_store::find(const std::string& id) {
  std::lock_guard<std::mutex> g(mtx_);
  if (auto it = tasks_.find(id); it != tasks_.end())
    return it->second;
  return std::nullopt;
}

std::optional<protocol::task_record>
memory_task_store::modify(const std::string& id, const std::function<bool(protocol::task_record&)>& change) {
  std::lock_guard<std::mutex> g(mtx_);
  auto it = tasks_.find(id);
  if (it == tasks_.end())
    return std::nullopt;
  auto copy = it->second;
  if (!change(copy))
    return std::nullopt;
  it->second = copy;
  return copy;
}

std::vector<protocol::task_record> memory_task_store::owned_by(const std::string& owner) {
  std::vector<protocol::task_record> out;
  {
    std::lock_guard<std::mutex> g(mtx_);
    for (auto& [id, t] : tasks_)
      if (t.owner == owner)
        out.push_back(t);
  }
  return out;
}

std::vector<protocol::task_record> memory_task_store::expire(clock::time_point now) {
  std::vector<protocol::task_record> gone;
  std::lock_guard<std::mutex> g(mtx_);
  while (!by_end_.empty() && by_end_.begin()->first < now) {
    auto it = tasks_.find(by_end_.begin()->second);
    by_end_.erase(by_end_.begin());
    if (it == tasks_.end())
      continue;
    if (!it->second.owner.empty() && --per_owner_[it->second.owner] == 0)
      per_owner_.erase(it->second.owner);
    gone.push_back(std::move(it->second));
    tasks_.erase(it);
  }
  return gone;
}

} // namespace cafmcp::actors

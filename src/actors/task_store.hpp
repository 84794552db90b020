#pragma once
// Where tasks are kept between the call that created them and the last
// tasks/get: what a later request, on any connection, needs. An interface,
// so that a shared backend can keep them for every node of a cluster; the
// in-memory one (memory_task_store) is the default.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cafmcp/json_rpc.hpp"
#include "cafmcp/server_options.hpp"

#include "protocol/task.hpp"

namespace cafmcp::actors {

/// The refusals every store gives, naming the limit.
jsonrpc::error too_many_tasks(std::size_t limit);
jsonrpc::error too_many_tasks_of_owner(std::size_t limit);

class task_store {
public:
  using clock = protocol::task_record::clock;
  virtual ~task_store() = default;
  /// Keeps a new task, or refuses it (nothing kept) past max_tasks or
  /// max_tasks_per_owner, naming the limit.
  virtual std::optional<jsonrpc::error> insert(protocol::task_record r, const task_options& limits) = 0;
  virtual std::optional<protocol::task_record> find(const std::string& id) = 0;
  /// Runs `change` on the task, atomically with respect to every other
  /// call; the record afterwards when `change` returned true (kept), else
  /// nothing (unchanged, or no such task).
  virtual std::optional<protocol::task_record>
  modify(const std::string& id, const std::function<bool(protocol::task_record&)>& change) = 0;
  /// The tasks of one owner, in no particular order (tasks/list orders them).
  virtual std::vector<protocol::task_record> owned_by(const std::string& owner) = 0;
  /// Forgets the tasks whose ttl ran out before `now` and returns them.
  virtual std::vector<protocol::task_record> expire(clock::time_point now) = 0;
  /// True when other processes change the same records (a cluster's
  /// store): a task's actor then looks at its record now and then, since a
  /// tasks/cancel served by another node reaches the record, not the actor.
  virtual bool shared() const { return false; }
};

} // namespace cafmcp::actors

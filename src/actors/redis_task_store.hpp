#pragma once
// Tasks kept in the cluster's Redis, so that any node answers tasks/get and
// tasks/result for a task another node runs, and a task whose node died is
// seen failed instead of working forever.
//
//   <prefix>:task:<id>     the record (JSON), expiring with the task's ttl
//   <prefix>:owner:<owner> the ids an owner made (tasks/list, its limit)
//   <prefix>:node:<origin> this node's heartbeat, refreshed every second,
//                          gone three seconds after the node is
//
// A read that finds a task still working on a node whose heartbeat is gone
// marks it failed, naming the node. Changes are WATCH/MULTI transactions,
// retried when another node changed the task meanwhile. One connection
// under a lock: tasks are created and polled at the pace of long calls.
// max_tasks counts this node's tasks; max_tasks_per_owner every node's.
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include "actors/task_store.hpp"
#include "cluster/redis_connection.hpp"

namespace cafmcp::actors {

class redis_task_store final : public task_store {
public:
  /// Connects on first use (and again after a failure): Redis being away
  /// fails the requests that need it, not the server's start.
  redis_task_store(cluster::redis_address where, std::string key_prefix, std::string node,
                   std::chrono::milliseconds timeout);
  ~redis_task_store() override;

  std::optional<jsonrpc::error> insert(protocol::task_record r, const task_options& limits) override;
  std::optional<protocol::task_record> find(const std::string& id) override;
  std::optional<protocol::task_record>
  modify(const std::string& id, const std::function<bool(protocol::task_record&)>& change) override;
  std::vector<protocol::task_record> owned_by(const std::string& owner) override;
  bool shared() const override { return true; }
  std::vector<protocol::task_record> expire(clock::time_point now) override;

private:
  // With mtx_ held: a command on a live connection (reconnected once).
  cluster::reply_ptr command(std::initializer_list<std::string_view> args);
  std::optional<protocol::task_record> read(const std::string& id);
  bool node_alive(const std::string& node);
  std::optional<protocol::task_record>
  change_locked(const std::string& id, const std::function<bool(protocol::task_record&)>& change);
  void beat();

  cluster::redis_address where_;
  std::string prefix_, node_;
  std::chrono::milliseconds timeout_;
  std::mutex mtx_;
  std::unique_ptr<cluster::redis_connection> conn_; // null until connected, or after a failure
  std::multimap<clock::time_point, std::string> local_ends_; // this node's tasks, by ttl end
  bool stopping_ = false;
  std::condition_variable wake_;
  std::thread heartbeat_; // last: starts once the rest exists
};

} // namespace cafmcp::actors

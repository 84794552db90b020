#pragma once
// Tasks' API, as plain functions in front of their actors (task_actor): a
// task is created by the call that starts it (stored before that call is
// answered, so an immediate tasks/get finds it) and from then on moved by
// its actor, which the handler's runs and the tasks methods send to. Reads
// (tasks/get, tasks/list) are answered from the task_store directly.
//
// A task another node runs (clustered) has no actor here: its tasks/result
// waiters are polled from the shared store, and tasks/cancel changes its
// record (that node's actor sees it at its next look).
// Thread-safe: workers, sessions and the server actor call it.
#include <condition_variable>
#include <map>
#include <thread>
#include <variant>

#include "actors/task_actor.hpp"

namespace cafmcp::actors {

class task_service {
public:
  using clock = task_store::clock;
  using runner = task_core::runner;
  using notifier = task_core::notifier;
  using watcher = task_core::watcher;
  using reply = std::function<void(protocol::outcome)>;

  task_service(caf::actor_system& sys, task_options limits, std::unique_ptr<task_store> store);
  ~task_service();
  // Set once, before the first task.
  void set_runner(runner r);
  void set_notifier(notifier n);
  void set_watcher(watcher w);

  struct started {
    protocol::task_record record;
    std::shared_ptr<std::atomic<bool>> cancelled; // the task's, not the request's
  };
  /// Makes `c` a task that `job` runs, with an actor of its own; refused
  /// past the limits.
  std::variant<started, jsonrpc::error> start(const call& c, const protocol::job& job);

  // -- from the task's handler, to its actor (nothing once it ended) -----------
  /// The handler's run ended: completed with a result, failed with an error.
  void settle(const std::string& id, protocol::outcome out);
  /// The handler needs input: `requests` (key -> {method, params}), with
  /// the answers it had and the state it keeps.
  void park(const std::string& id, json requests, json answers, json state);
  /// A 2026-07-28 task's progress or log message: its statusMessage.
  void note(const std::string& id, const json& notification);
  /// 2025-11-25: a handler blocked on a request to the client.
  void waiting_for_input(const std::string& id, bool waiting);

  // -- the tasks methods (who: the caller's verified subject, or empty) --------
  protocol::outcome get(const std::string& id, const std::string& who);
  /// 2026-07-28 tasks/update: answers for the pending input requests; the
  /// last one missing runs the handler again.
  void update(const std::string& id, const json& responses, const std::string& who, reply r);
  void cancel(const std::string& id, const std::string& who, reply r);
  /// 2025-11-25 tasks/result: answered once the task is terminal.
  void result(const std::string& id, const std::string& who, reply r);
  /// 2025-11-25 tasks/list: the owner's tasks, a page from `cursor`.
  protocol::outcome list(const std::string& owner, const json& params);
  /// Whether `who` may see task `id` (it exists, and is theirs or nobody's).
  bool visible_to(const std::string& id, const std::string& who);

  /// The server stops: every task running here fails ("server stopped"),
  /// its handler sees cancelled(); returns once their actors have ended.
  void stop();

  /// The actor of a task this process runs (tests kill it).
  std::optional<task_actor> actor_of(const std::string& id) { return core_->actor_of(id); }

private:
  std::optional<protocol::task_record> visible(const std::string& id, const std::string& who);
  void sweep();
  void poll_remote();

  caf::actor_system& sys_;
  std::shared_ptr<task_core> core_;
  // tasks/result for tasks another node runs (clustered): polled.
  std::mutex remote_mtx_; // guards what follows
  std::multimap<std::string, reply> remote_waiters_;
  bool stopping_ = false;
  std::condition_variable poll_wake_;
  std::thread poller_; // last: starts once the rest exists
};

} // namespace cafmcp::actors

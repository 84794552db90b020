#pragma once
// A task's behaviour around its record: created by the call that starts it
// (before that call is answered, so an immediate tasks/get finds it), moved
// through its statuses by the handler's runs, and answered from by the tasks
// methods on any session. A handler that needs the client's input while it
// runs as a task parks it (input_required); the client's answers (tasks/update)
// run the handler again with them, on a worker, as a 2026-07-28 retry would.
//
// What a task needs to run again (its job and call) lives here, in this
// process; what a later request needs to read lives in the task_store.
// Thread-safe: workers, sessions and the server actor call it.
#include <atomic>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>
#include <variant>

#include "actors/messages.hpp"
#include "actors/task_store.hpp"

namespace cafmcp::actors {

class task_service {
public:
  using clock = task_store::clock;
  /// Runs a task's job again (on a worker); set once by the server.
  using runner = std::function<void(protocol::job, call)>;
  /// Sends a 2025-11-25 notification to the session that created a task.
  using notifier = std::function<void(const session_actor& session, json message)>;

  task_service(task_options limits, std::unique_ptr<task_store> store);
  ~task_service();
  void set_runner(runner r);
  void set_notifier(notifier n);

  struct started {
    protocol::task_record record;
    std::shared_ptr<std::atomic<bool>> cancelled; // the task's, not the request's
  };
  /// Makes `c` a task that `job` runs; refused past the limits.
  std::variant<started, jsonrpc::error> start(const call& c, const protocol::job& job);

  /// The handler's run ended: completed with a result, failed with an
  /// error (nothing happens once the task is terminal, e.g. cancelled).
  void settle(const std::string& id, protocol::outcome out);
  /// The handler needs input: `requests` (key -> {method, params}), with
  /// the answers it had and the state it keeps.
  void park(const std::string& id, json requests, json answers, json state);
  /// A 2026-07-28 task's progress or log message (the notification the
  /// handler would have sent): its text becomes the task's statusMessage.
  void note(const std::string& id, const json& notification);
  /// 2025-11-25: a handler blocked on a request to the client.
  void waiting_for_input(const std::string& id, bool waiting);

  // -- the tasks methods (who: the caller's verified subject, or empty) --------
  protocol::outcome get(const std::string& id, const std::string& who);
  /// 2026-07-28 tasks/update: answers for the pending input requests; the
  /// last one missing runs the handler again. Answers to no pending
  /// request are ignored.
  protocol::outcome update(const std::string& id, const json& responses, const std::string& who);
  protocol::outcome cancel(const std::string& id, const std::string& who);
  /// 2025-11-25 tasks/result: `reply` once the task is terminal (now, or
  /// later from the thread that ends it).
  void result(const std::string& id, const std::string& who, std::function<void(protocol::outcome)> reply);
  /// 2025-11-25 tasks/list: the owner's tasks, a page from `cursor`.
  protocol::outcome list(const std::string& owner, const json& params);

  /// The server stops: every running task fails ("server stopped") and
  /// its handler sees cancelled().
  void stop();

private:
  struct continuation {
    protocol::job job;
    call c;
    std::shared_ptr<std::atomic<bool>> cancelled;
  };
  std::optional<protocol::task_record> visible(const std::string& id, const std::string& who);
  void changed(const protocol::task_record& t); // notifications, waiters, continuation
  void sweep();
  void poll_remote();

  task_options limits_;
  std::unique_ptr<task_store> store_;
  runner run_;
  notifier notify_;
  std::mutex mtx_; // guards what follows
  std::map<std::string, continuation> running_;
  std::multimap<std::string, std::function<void(protocol::outcome)>> waiters_;
  // tasks/result for tasks another node runs (clustered): polled.
  std::multimap<std::string, std::function<void(protocol::outcome)>> remote_waiters_;
  bool stopping_ = false;
  std::condition_variable poll_wake_;
  std::thread poller_; // last: starts once the rest exists
};

} // namespace cafmcp::actors

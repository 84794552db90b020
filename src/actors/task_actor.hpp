#pragma once
// One task as an actor. While its task has not ended it owns what only this
// process can do for it: the continuation (the job and call its handler runs
// again with), the tasks/result waiters and the session told of its status
// (2025-11-25); and it is the one writer of its record, so each task's
// moves are ordered without a lock that all tasks share. Reads (tasks/get,
// tasks/list) go to the task_store and never wait for it. It ends when its
// task does: terminal, expired, or the server stopping.
//
// Supervision: a task is what OTP calls a temporary child. A task actor that
// dies (an exception in its behaviour, a kill) is not restarted, since its
// handler's continuation died with it; its end is recorded instead. The
// task reads failed, naming why, and every waiter is answered (task_answer).
#include <functional>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "actors/messages.hpp"
#include "actors/task_store.hpp"

namespace cafmcp::actors {

using park_atom = caf::atom_constant<caf::atom("park")>;
using note_atom = caf::atom_constant<caf::atom("note")>;
using input_atom = caf::atom_constant<caf::atom("input")>;
using update_atom = caf::atom_constant<caf::atom("update")>;
using cancel_atom = caf::atom_constant<caf::atom("cancel")>;
using result_atom = caf::atom_constant<caf::atom("result")>;
using expire_atom = caf::atom_constant<caf::atom("expire")>;
using stop_atom = caf::atom_constant<caf::atom("stop")>;
using recheck_atom = caf::atom_constant<caf::atom("recheck")>;

/// A reply owed to a tasks/* request, given exactly once. If nobody gives it
/// (the message carrying it was dropped: the actor had ended), its
/// destructor answers from the record as the store has it then.
class task_answer {
public:
  using reply = std::function<void(protocol::outcome)>;
  task_answer(reply r, std::function<protocol::outcome()> otherwise)
    : reply_(std::move(r)), otherwise_(std::move(otherwise)) {}
  ~task_answer();
  task_answer(const task_answer&) = delete;
  task_answer& operator=(const task_answer&) = delete;
  void operator()(protocol::outcome out);

private:
  reply reply_;
  std::function<protocol::outcome()> otherwise_;
};
using task_answer_ptr = std::shared_ptr<task_answer>;

/// What a task needs to run again (2026-07-28 input answered).
struct task_continuation {
  protocol::job job;
  call c;
  std::shared_ptr<std::atomic<bool>> cancelled; // the task's: its handler sees cancelled()
};

using task_actor = caf::typed_actor<
  caf::reacts_to<settle_atom, protocol::outcome>,  // the handler's run ended
  caf::reacts_to<park_atom, json, json, json>,     // needs input: requests, answers so far, state
  caf::reacts_to<note_atom, json>,                 // a progress or log notification (2026: statusMessage)
  caf::reacts_to<input_atom, bool>,                // 2025-11-25: waiting on the client, or done
  caf::reacts_to<update_atom, json, task_answer_ptr>, // tasks/update
  caf::reacts_to<cancel_atom, task_answer_ptr>,    // tasks/cancel
  caf::reacts_to<result_atom, task_answer_ptr>,    // tasks/result: answered once the task ends
  caf::reacts_to<expire_atom>,                     // its ttl ran out (the store forgot it)
  caf::reacts_to<stop_atom, settlement_ptr>,         // the server stops: fail; the token goes when done
  caf::reacts_to<recheck_atom>>;                     // a shared store: ended through another node?

/// What every task actor of one server shares with the task_service.
struct task_core {
  /// Runs a task's job again (on a worker); set once by the server.
  using runner = std::function<void(protocol::job, call)>;
  /// Sends a 2025-11-25 notification to the session that created a task.
  using notifier = std::function<void(const session_actor& session, json message)>;
  /// A task changed (every move): for 2026-07-28 listen streams.
  using watcher = std::function<void(const protocol::task_record&)>;

  task_core(task_options l, std::unique_ptr<task_store> s) : limits(l), store(std::move(s)) {}
  const task_options limits;
  const std::unique_ptr<task_store> store;
  runner run;
  notifier notify;
  watcher watch;

  std::mutex mtx; // guards `live`
  std::unordered_map<std::string, task_actor> live; // the tasks this process runs

  std::optional<task_actor> actor_of(const std::string& id);
  /// Fails the task if it has not ended (its actor is gone, or the server
  /// stops); the record afterwards, when it changed.
  std::optional<protocol::task_record> fail(const std::string& id, const std::string& why);
  /// What tasks/result answers for a task as the store has it now.
  protocol::outcome outcome_of(const std::string& id);
  /// tasks/cancel applied to the stored record: its answer, and the record
  /// afterwards when it changed.
  std::pair<protocol::outcome, std::optional<protocol::task_record>> cancel(const std::string& id);
};

/// Spawns the actor of a task just stored, registered in `core->live` until
/// it ends.
task_actor spawn_task_actor(caf::actor_system& sys, std::shared_ptr<task_core> core, std::string id,
                            task_continuation k);

} // namespace cafmcp::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(cafmcp::actors::task_answer_ptr)

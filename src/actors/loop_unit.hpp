#pragma once
// An event loop's thread as a CAF execution unit. A message the loop hands
// to an idle actor (a session, `connection::receive`) schedules that actor
// here instead of on a CAF worker; what the actor sends to idle actors
// runs here too, in the same drain. A tools/call is then read, dispatched
// (server actor), run (a quick handler on its session) and answered on one
// thread.
//
// Cost model: one `post` to the loop per drain (the loop's own queue, no
// wake-up: this is its thread); per job a deque push and pop and CAF's
// `resume`. What it saves is the hand-off to a CAF worker: on a busy
// machine the loop's enqueue signalled a sleeping worker's condition
// variable and the worker took its mutex back (every futex call of the
// request path; BENCHMARKS.md "whose sleeps and wakes"). Bounded: a drain
// resumes at most `resumes_per_drain` jobs of at most
// `messages_per_resume` messages each, then the loop's sockets get their
// turn and a new drain is posted; an actor with more than its share left
// goes to the CAF scheduler, as does whatever is queued when the unit is
// destroyed. Confined to its loop's thread (exec_later is only called
// there: by the loop, or by an actor this unit is running).
#include <deque>
#include <functional>
#include <memory>

#include <caf/all.hpp>

#include "actors/loop_door.hpp"

namespace cafmcp::actors {

class loop_unit final : public caf::execution_unit {
public:
  using poster = std::function<void(std::function<void()>)>;
  /// `door`: the loop's way in from other threads, where it has one.
  loop_unit(caf::actor_system& sys, poster post, std::shared_ptr<loop_door> door = nullptr);
  ~loop_unit() override;
  void exec_later(caf::resumable* job) override;
  /// The unit of this thread's loop; nullptr on any other thread.
  static loop_unit*& here();
  /// The loop's way in from other threads (loop_door.hpp); nullptr where
  /// only the loop itself may post.
  const std::shared_ptr<loop_door>& door() const { return door_; }

private:
  void drain();
  poster post_;
  std::shared_ptr<loop_door> door_;
  std::deque<caf::resumable*> jobs_;
  bool posted_ = false;
};

} // namespace cafmcp::actors

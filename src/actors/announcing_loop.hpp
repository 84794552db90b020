#pragma once
// The event loop a clustered server announces what it reads from the log
// on. The log reader has a thread of its own: handed from there to the
// server actor (caf::anon_send), a change ran on a CAF worker, and so did
// the notifier it woke, so every delivery went through its session's
// outbox (a lock, a post, a run on the session's loop). Handed to a loop
// instead (one post per batch the reader read), the server actor and the
// notifier run there, as a single node's do, and the loop's own sessions
// take the direct path (with the settlement riding on the announcement,
// server_actor.cpp: one update at a time to 500 sessions, ~2,958 -> ~2,390
// instructions per delivery, callgrind; a single node's: ~1,713).
//
// The first loop offered is the one, until it withdraws; only a loop
// whose post any thread may call and that sleeps where a post wakes it is
// offered (Asio's post; not stdio's reader, asleep in read(2)). Without one (before the transport starts, after it stops, with
// actors_on_event_loops off) changes go through CAF's scheduler as before.
// Order is kept across the change: what was handed on earlier is in the
// server actor's mailbox before a later batch is posted. A batch posted
// but never run (the loop stopped first) is sent through the scheduler
// when its job is destroyed, behind any that overtook it; the server actor
// sees the handed-on count out of turn and has every session re-read
// (logged_change::handed).
#include <functional>
#include <memory>
#include <mutex>

#include "actors/loop_door.hpp"

namespace cafmcp::actors {

class announcing_loop {
public:
  /// The door of a loop whose post any thread may call, as it starts
  /// running actors: it becomes the one unless another already is.
  void offer(std::shared_ptr<loop_door> door);
  /// From that loop, as it stops running actors: nothing more goes to it.
  void withdraw(const loop_door* door);
  /// Hands `job` to the loop: false, with `job` untouched, where none is.
  bool post(std::function<void()>& job);

private:
  std::mutex mtx_; // the reader's thread against the loop's start and end
  std::shared_ptr<loop_door> door_;
};

} // namespace cafmcp::actors

#pragma once
// How sessions hear that the server actor they sent requests to has ended
// (they answer what it had not handled with "retry"): the supervisor
// attaches one functor to each server actor it starts, which tells every
// live session (session_roster) with a caf::down_msg, as a monitor would.
//
// Why not a monitor per session: CAF keeps an actor's monitors in a list
// that demonitor walks under the monitored actor's lock. With n sessions
// open, every session's end walked n entries, all of it serialised on the
// server actor's lock: 48k of the 277k instructions a session cost the
// server with 500 to 1,500 open, and growing with n.
//
// A session that picks up a server actor which has already ended (the
// registry still names it until its successor is published) finds it in
// ended() and tells itself. One that looked before the end is told by the
// functor: a session enters the roster before it first looks, and the
// functor records the end before it walks the roster, so every session is
// either seen by the walk or sees the record (perhaps both: its down
// handler ignores a second down_msg from the same source).
#include <memory>
#include <mutex>
#include <unordered_set>

#include <caf/actor.hpp>

#include "actors/session_roster.hpp"

namespace cafmcp::actors {

class server_watch : public std::enable_shared_from_this<server_watch> {
public:
  explicit server_watch(std::shared_ptr<session_roster> sessions) : sessions_(std::move(sessions)) {}

  // By the supervisor, for each server actor it starts.
  void watch(const caf::actor& server);

  // By a session that now sends to `server`, after remembering it: true if
  // it ended already (no down_msg may reach the session for it then).
  bool ended(caf::actor_id server) const;

private:
  std::weak_ptr<session_roster> sessions_;
  mutable std::mutex mtx_;
  std::unordered_set<caf::actor_id> ended_; // one per restart of the server actor
};

} // namespace cafmcp::actors

#include "actors/session_roster.hpp"

#include <caf/actor_cast.hpp>
#include <caf/attachable.hpp>

namespace cafmcp::actors {

void session_roster::add(const caf::actor& session) {
  auto id = session.id();
  {
    std::lock_guard<std::mutex> guard(mtx_);
    live_.emplace(id, caf::actor_cast<caf::weak_actor_ptr>(session));
  }
  // Attached after the entry is in: an actor that has already ended runs
  // the functor at once, so no entry outlives its session. The functor
  // holds the roster weakly: a session ending after the server (in its
  // actor system's last moments) finds nothing to leave.
  std::weak_ptr<session_roster> roster = shared_from_this();
  session->attach_functor([roster, id] {
    if (auto r = roster.lock()) {
      std::lock_guard<std::mutex> guard(r->mtx_);
      r->live_.erase(id);
    }
  });
}

std::size_t session_roster::size() const {
  std::lock_guard<std::mutex> guard(mtx_);
  return live_.size();
}

} // namespace cafmcp::actors

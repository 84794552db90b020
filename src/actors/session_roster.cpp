#include "actors/session_roster.hpp"

#include <caf/actor_cast.hpp>

namespace cafmcp::actors {

session_roster::membership session_roster::add(const caf::actor& session) {
  std::lock_guard<std::mutex> guard(mtx_);
  live_.emplace(session.id(), caf::actor_cast<caf::weak_actor_ptr>(session));
  return membership(weak_from_this(), session.id());
}

session_roster::membership& session_roster::membership::operator=(membership&& other) noexcept {
  if (this != &other) {
    leave();
    roster_ = std::move(other.roster_);
    id_ = std::exchange(other.id_, 0);
  }
  return *this;
}

void session_roster::membership::leave() {
  if (auto r = roster_.lock()) {
    std::lock_guard<std::mutex> guard(r->mtx_);
    r->live_.erase(id_);
  }
  roster_.reset();
}

std::size_t session_roster::size() const {
  std::lock_guard<std::mutex> guard(mtx_);
  return live_.size();
}

} // namespace cafmcp::actors

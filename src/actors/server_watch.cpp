#include "actors/server_watch.hpp"

#include <caf/actor_cast.hpp>
#include <caf/send.hpp>
#include <caf/system_messages.hpp>

namespace cafmcp::actors {

void server_watch::watch(const caf::actor& server) {
  // Held by the functor: the server actor may be the runtime's last holder,
  // and it runs its functors after its state (and that hold) is gone.
  server->attach_functor(
    [self = shared_from_this(), addr = server.address(), id = server.id()](const caf::error& reason) {
      {
        std::lock_guard<std::mutex> guard(self->mtx_);
        self->ended_.insert(id); // first: a session that looks from now on sees it
      }
      if (auto roster = self->sessions_.lock())
        roster->for_each_live([&](const caf::strong_actor_ptr& s) {
          caf::anon_send(caf::actor_cast<caf::actor>(s), caf::down_msg{addr, reason});
        });
    });
}

bool server_watch::ended(caf::actor_id server) const {
  std::lock_guard<std::mutex> guard(mtx_);
  return ended_.count(server) != 0;
}

} // namespace cafmcp::actors

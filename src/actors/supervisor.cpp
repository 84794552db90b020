#include "actors/supervisor.hpp"

#include <deque>

#include "actors/notifier.hpp"
#include "actors/runtime.hpp"
#include "actors/server_actor.hpp"

namespace cafmcp::actors {
namespace {

const caf::atom_value server_name = caf::atom("cm.server");
const caf::atom_value notifier_name = caf::atom("cm.notify");

template <class Handle>
void publish(caf::actor_system& sys, caf::atom_value name, const Handle& h) {
  sys.registry().erase(name); // put() does not overwrite
  sys.registry().put(name, caf::actor_cast<caf::strong_actor_ptr>(h));
}

// The broadcasts a dead notifier still had in its mailbox are gone, and
// nothing says which: every client re-reads everything. Clustered, through
// the log, so that the resync takes its place in every node's order (and
// its event ids are the log's, like every other notification's).
void resync_everyone(runtime& rt, const notifier_actor& notifier) {
  if (rt.cluster) {
    protocol::log_record r;
    r.resync = true;
    rt.cluster->publish(std::move(r), nullptr);
    return;
  }
  caf::anon_send(notifier, resync_atom::value, trace_context{});
}

} // namespace

server_actor runtime::server() const {
  return caf::actor_cast<server_actor>(system.registry().get(server_name));
}

notifier_actor runtime::notifier() const {
  return caf::actor_cast<notifier_actor>(system.registry().get(notifier_name));
}

caf::behavior supervisor(caf::event_based_actor* self, std::shared_ptr<runtime> rt,
                         supervisor_limits limits) {
  struct children {
    caf::actor_addr server;
    caf::actor_addr notifier;
    std::deque<std::chrono::steady_clock::time_point> restarts;
  };
  auto kids = std::make_shared<children>();
  auto start_notifier = [self, rt, kids] {
    auto h = self->spawn<caf::linked>(change_notifier, rt);
    kids->notifier = h.address();
    publish(self->system(), notifier_name, h);
    return h;
  };
  auto start_server = [self, rt, kids] {
    auto h = self->spawn<caf::linked>(server_behavior, rt);
    rt->server_ends->watch(caf::actor_cast<caf::actor>(h));
    kids->server = h.address();
    publish(self->system(), server_name, h);
  };
  start_notifier();
  start_server();
  self->set_exit_handler([=](caf::exit_msg& em) {
    bool is_server = em.source == kids->server;
    bool is_notifier = em.source == kids->notifier;
    if (!is_server && !is_notifier) { // our parent or the owner: stop
      self->quit(em.reason);
      return;
    }
    auto now = std::chrono::steady_clock::now();
    kids->restarts.push_back(now);
    while (!kids->restarts.empty() && now - kids->restarts.front() > limits.window)
      kids->restarts.pop_front();
    if (static_cast<int>(kids->restarts.size()) > limits.max_restarts) {
      std::fprintf(stderr, "cafmcp: supervisor: restart intensity exceeded; giving up\n");
      self->quit(em.reason);
      return;
    }
    std::fprintf(stderr, "cafmcp: supervisor: %s exited (%s); restarting\n",
                 is_server ? "server actor" : "change notifier", self->system().render(em.reason).c_str());
    if (is_server) {
      start_server();
      ++rt->server_restarts;
      if (rt->metrics)
        rt->metrics->server_restarts.add();
    } else {
      resync_everyone(*rt, start_notifier());
      ++rt->notifier_restarts;
      if (rt->metrics)
        rt->metrics->notifier_restarts.add();
    }
  });
  // Answered once the children above exist: the server handle waits for it.
  return {[](ready_atom) { return true; }};
}

} // namespace cafmcp::actors

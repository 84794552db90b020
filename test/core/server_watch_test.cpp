// server_watch: one functor on the server actor tells every live session
// of its end with the down_msg a monitor would have sent, and a session that
// looks after the end learns it from ended().
#include <memory>
#include <string>
#include <vector>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>
#include <caf/event_based_actor.hpp>
#include <caf/scoped_actor.hpp>
#include <gtest/gtest.h>

#include "actors/server_watch.hpp"
#include "actors/session_roster.hpp"

namespace cafmcp::actors {
namespace {

// Stands in for a session: forwards every down_msg it gets to `observer`,
// and answers a ping with "flushed" (after whatever came before it).
caf::behavior forwarding_session(caf::event_based_actor* self, caf::actor observer) {
  self->set_down_handler([self, observer](caf::down_msg& dm) { self->send(observer, dm.source); });
  return {[self, observer](int) { self->send(observer, std::string("flushed")); }};
}

caf::behavior idle_server(caf::event_based_actor*) {
  return {[](int) {}};
}

class ServerWatch : public ::testing::Test {
protected:
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  std::shared_ptr<session_roster> roster = std::make_shared<session_roster>();
  std::shared_ptr<server_watch> watch = std::make_shared<server_watch>(roster);
  caf::scoped_actor observer{sys};
};

TEST_F(ServerWatch, EveryLiveSessionHearsTheServerActorEndOnce) {
  constexpr int sessions = 3;
  std::vector<caf::actor> held; // the roster's references are weak, as a connection holds a session
  for (int i = 0; i < sessions; ++i) {
    held.push_back(sys.spawn(forwarding_session, caf::actor{observer}));
    roster->add(held.back());
  }
  auto server = sys.spawn(idle_server);
  auto addr = server.address();
  EXPECT_EQ(roster->size(), std::size_t{sessions});
  watch->watch(server);
  EXPECT_FALSE(watch->ended(server.id()));
  caf::anon_send_exit(server, caf::exit_reason::kill);
  for (int i = 0; i < sessions; ++i)
    observer->receive([&](const caf::actor_addr& source) { EXPECT_EQ(source, addr); },
                      caf::after(std::chrono::seconds(10)) >> [] { FAIL() << "a session was not told"; });
  EXPECT_TRUE(watch->ended(addr.id()));
  // Told once each: a ping through each session comes back after anything
  // it had sent before.
  for (auto& s : held)
    caf::anon_send(s, 1);
  int flushed = 0, more = 0;
  while (flushed < sessions)
    observer->receive([&](const std::string&) { ++flushed; }, [&](const caf::actor_addr&) { ++more; },
                      caf::after(std::chrono::seconds(10)) >>
                        [&] {
                          ADD_FAILURE() << "a ping was not answered";
                          flushed = sessions;
                        });
  EXPECT_EQ(more, 0);
  for (auto& s : held)
    caf::anon_send_exit(s, caf::exit_reason::kill);
}

TEST_F(ServerWatch, ASessionLeavesTheRosterAsItEndsAndAnEndIsRemembered) {
  auto gone = sys.spawn(forwarding_session, caf::actor{observer});
  roster->add(gone);
  observer->monitor(gone);
  caf::anon_send_exit(gone, caf::exit_reason::kill);
  observer->receive([](const caf::down_msg&) {});
  EXPECT_EQ(roster->size(), 0u); // it left as it ended
  auto server = sys.spawn(idle_server);
  watch->watch(server);
  caf::anon_send_exit(server, caf::exit_reason::kill);
  observer->monitor(server);
  observer->receive([](const caf::down_msg&) {});
  EXPECT_TRUE(watch->ended(server.id()));
}

} // namespace
} // namespace cafmcp::actors

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
#include <caf/stateful_actor.hpp>
#include <gtest/gtest.h>

#include "actors/server_watch.hpp"
#include "actors/session_roster.hpp"

namespace cafmcp::actors {
namespace {

// Stands in for a session: in the roster while it lives (as a session
// enters as it starts), forwards every down_msg it gets to `observer`, and
// answers a ping with "flushed" (after whatever came before it).
struct fake_session_state {
  session_roster::membership in_roster;
};

caf::behavior forwarding_session(caf::stateful_actor<fake_session_state>* self, caf::actor observer,
                                 std::shared_ptr<session_roster> roster) {
  self->state.in_roster = roster->add(caf::actor_cast<caf::actor>(self));
  self->set_down_handler([self, observer](caf::down_msg& dm) { self->send(observer, dm.source); });
  return {[self, observer](int) { self->send(observer, std::string("flushed")); }};
}

// Takes an argument it ignores: CAF 0.17 spawning a function with none
// binds a reference through a null pointer (UBSan reports it).
caf::behavior idle_server(caf::event_based_actor*, int) {
  return {[](int) {}};
}

class ServerWatch : public ::testing::Test {
protected:
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  std::shared_ptr<session_roster> roster = std::make_shared<session_roster>();
  std::shared_ptr<server_watch> watch = std::make_shared<server_watch>(roster);
  caf::scoped_actor observer{sys};

  // Pings each session and waits for every answer: what each had sent
  // before has then arrived. Returns how many addresses (down_msg sources)
  // came meanwhile.
  int flush(const std::vector<caf::actor>& sessions) {
    for (auto& s : sessions)
      caf::anon_send(s, 1);
    int flushed = 0, addresses = 0;
    while (flushed < static_cast<int>(sessions.size()))
      observer->receive([&](const std::string&) { ++flushed; }, [&](const caf::actor_addr&) { ++addresses; },
                        caf::after(std::chrono::seconds(10)) >>
                          [&] {
                            ADD_FAILURE() << "a ping was not answered";
                            flushed = static_cast<int>(sessions.size());
                          });
    return addresses;
  }
};

TEST_F(ServerWatch, EveryLiveSessionHearsTheServerActorEndOnce) {
  constexpr int sessions = 3;
  std::vector<caf::actor> held; // the roster's references are weak, as a connection holds a session
  for (int i = 0; i < sessions; ++i)
    held.push_back(sys.spawn(forwarding_session, caf::actor{observer}, roster));
  EXPECT_EQ(flush(held), 0); // each has started, and entered the roster
  auto server = sys.spawn(idle_server, 0);
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
  EXPECT_EQ(flush(held), 0);
  for (auto& s : held)
    caf::anon_send_exit(s, caf::exit_reason::kill);
}

TEST_F(ServerWatch, ASessionLeavesTheRosterAsItEndsAndAnEndIsRemembered) {
  auto gone = sys.spawn(forwarding_session, caf::actor{observer}, roster);
  EXPECT_EQ(flush({gone}), 0);
  EXPECT_EQ(roster->size(), 1u);
  observer->monitor(gone);
  caf::anon_send_exit(gone, caf::exit_reason::kill);
  observer->receive([](const caf::down_msg&) {});
  EXPECT_EQ(roster->size(), 0u); // it left as its state went, before its end was told
  auto stays = sys.spawn(forwarding_session, caf::actor{observer}, roster);
  EXPECT_EQ(flush({stays}), 0);
  auto server = sys.spawn(idle_server, 0);
  watch->watch(server);
  caf::anon_send_exit(server, caf::exit_reason::kill);
  observer->receive([](const caf::actor_addr&) {}, // told by the functor, which records the end first
                    caf::after(std::chrono::seconds(10)) >>
                      [] { ADD_FAILURE() << "the session was not told"; });
  EXPECT_TRUE(watch->ended(server.id()));
  caf::anon_send_exit(stays, caf::exit_reason::kill);
}

} // namespace
} // namespace cafmcp::actors

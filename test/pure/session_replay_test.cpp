// What the change log told one session, replayed from a node's recent
// entries: numbered as the live notifier numbers it, exactly what came
// after the client's last event, and an honest "gone" when entries it needs
// were dropped. Pure: no log, no actors.
#include <gtest/gtest.h>

#include "protocol/recent_log.hpp"
#include "protocol/session_replay.hpp"

namespace cafmcp::protocol {
namespace {

log_record updated(std::string uri) {
  log_record r;
  r.updated_uri = std::move(uri);
  return r;
}

log_record added_tool(std::string name) {
  log_record r;
  r.list_change = change{item_kind::tool, operation::added, name, {{"name", name}}};
  return r;
}

log_record record_of(std::string id, std::vector<std::string> subscriptions) {
  log_record r;
  session_record s;
  s.protocol_version = "2025-11-25";
  s.subscriptions = std::move(subscriptions);
  r.session = log_record::session_note{std::move(id), std::move(s)};
  return r;
}

log_record ended(std::string id) {
  log_record r;
  r.session = log_record::session_note{std::move(id), std::nullopt};
  return r;
}

log_mark at(std::uint64_t seq, std::uint32_t k = whole_entry) { return {1700, seq, k}; }

// "method uri-or-name" per message told, with its mark's seq and place.
std::vector<std::string> told(const recent_log::replay& r) {
  std::vector<std::string> out;
  for (auto& [m, msg] : r.told) {
    auto& p = msg["params"];
    out.push_back(std::to_string(m.seq) + "." + std::to_string(m.k) + " " + msg["method"].get<std::string>()
                  + " " + (p.contains("uri") ? p["uri"].get<std::string>() : p.value("name", std::string())));
  }
  return out;
}

TEST(SessionReplay, AnEntryTellsListChangesToEveryoneAndUpdatesToSubscribersOnly) {
  session_view s{{"test://a", "test://items/{id}"}};
  auto both = added_tool("t");
  both.updated_uri = "test://items/7";
  auto msgs = what_entry_tells(both, "s1", s, change_metadata::params);
  ASSERT_EQ(msgs.size(), 2u);
  EXPECT_EQ(msgs[0].place, entry_place::list_change);
  EXPECT_EQ(msgs[0].message["method"], "notifications/tools/list_changed");
  EXPECT_EQ(msgs[1].place, entry_place::updated);
  EXPECT_EQ(msgs[1].message["params"]["uri"], "test://items/7"); // by the template
  EXPECT_TRUE(what_entry_tells(updated("test://b"), "s1", s, change_metadata::params).empty());
}

TEST(SessionReplay, AResyncTellsEveryKindThenEachExactSubscriptionInOrder) {
  session_view s{{"test://z", "test://items/{id}", "test://a"}};
  log_record r;
  r.resync = true;
  auto msgs = what_entry_tells(r, "s1", s, change_metadata::params);
  ASSERT_EQ(msgs.size(), 5u);
  EXPECT_EQ(msgs[0].message["method"], "notifications/resources/list_changed");
  EXPECT_EQ(msgs[1].message["method"], "notifications/tools/list_changed");
  EXPECT_EQ(msgs[2].message["method"], "notifications/prompts/list_changed");
  EXPECT_EQ(msgs[3].place, entry_place::resync_updated_first);
  EXPECT_EQ(msgs[3].message["params"]["uri"], "test://a");
  EXPECT_EQ(msgs[4].message["params"]["uri"], "test://z");
}

TEST(SessionReplay, ASessionsOwnRecordAppliesFromTheNextEntryAndItsEndStopsEverything) {
  session_view s;
  EXPECT_TRUE(what_entry_tells(record_of("s1", {"test://a"}), "s1", s, change_metadata::params).empty());
  EXPECT_EQ(what_entry_tells(updated("test://a"), "s1", s, change_metadata::params).size(), 1u);
  what_entry_tells(record_of("s2", {}), "s1", s, change_metadata::params); // another session's
  EXPECT_EQ(what_entry_tells(updated("test://a"), "s1", s, change_metadata::params).size(), 1u);
  what_entry_tells(ended("s1"), "s1", s, change_metadata::params);
  EXPECT_TRUE(what_entry_tells(added_tool("t"), "s1", s, change_metadata::params).empty());
}

TEST(SessionReplay, AMessageToOneSessionIsToldToThatSessionAlone) {
  log_record r;
  r.message = log_record::session_message{"s1", {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}}};
  session_view s;
  auto mine = what_entry_tells(r, "s1", s, change_metadata::params);
  ASSERT_EQ(mine.size(), 1u);
  EXPECT_EQ(mine[0].place, entry_place::session_message);
  EXPECT_EQ(mine[0].message["method"], "notifications/cancelled");
  EXPECT_TRUE(what_entry_tells(r, "s2", s, change_metadata::params).empty());
}

TEST(RecentLog, ReplaysExactlyWhatCameAfterTheLastEventWithTheSessionsSubscriptionsAsTheyWere) {
  recent_log log(100);
  log.add(at(1), record_of("s1", {"test://a"}));
  log.add(at(2), updated("test://a"));
  auto both = added_tool("t");
  both.updated_uri = "test://a";
  log.add(at(3), both);
  log.add(at(4), record_of("s1", {"test://b"})); // subscribed elsewhere meanwhile
  log.add(at(5), updated("test://a"));
  log.add(at(6), updated("test://b"));
  // The client saw entry 3's list change, not its update.
  auto r = log.since("s1", at(3, entry_place::list_change), std::nullopt, change_metadata::params);
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(told(r), (std::vector<std::string>{"3.1 notifications/resources/updated test://a",
                                               "6.1 notifications/resources/updated test://b"}));
  EXPECT_EQ(r.upto, at(6));
  // Up to date: nothing, and still complete.
  auto none = log.since("s1", at(6), std::nullopt, change_metadata::params);
  EXPECT_TRUE(none.complete);
  EXPECT_TRUE(none.told.empty());
}

TEST(RecentLog, EntriesItNoLongerKeepsAreGoneNotSkipped) {
  recent_log log(3);
  log.add(at(1), record_of("s1", {"test://a"}));
  for (std::uint64_t i = 2; i <= 5; ++i)
    log.add(at(i), updated("test://a"));
  // Entries 1 and 2 were dropped: a client whose last event was entry 1's
  // would miss entry 2's update.
  EXPECT_FALSE(log.since("s1", at(1), std::nullopt, change_metadata::params).complete);
  // After all of entry 2: entries 3..5 are kept, but the session's record
  // (entry 1) is not, and nothing newer says what it subscribed to.
  EXPECT_FALSE(log.since("s1", at(2), std::nullopt, change_metadata::params).complete);
  // The node's newest record of the session, logged before then, does.
  session_record latest;
  latest.subscriptions = {"test://a"};
  auto r = log.since("s1", at(2), std::make_pair(at(1, 0), latest), change_metadata::params);
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(told(r).size(), 3u);
}

TEST(RecentLog, ASessionWithNoRecordBeforeTheMarkHadNotStartedWhileNothingWasDropped) {
  recent_log log(10);
  log.add(at(1), added_tool("before"));
  log.add(at(2), record_of("s1", {"test://a"}));
  log.add(at(3), updated("test://a"));
  auto r = log.since("s1", at(1), std::nullopt, change_metadata::params);
  ASSERT_TRUE(r.complete);
  EXPECT_EQ(told(r), (std::vector<std::string>{"3.1 notifications/resources/updated test://a"}));
}

} // namespace
} // namespace cafmcp::protocol

// The TTL/LRU resource store with real timers and real sessions.
#include <atomic>

#include "cafmcp/resource_store.hpp"

#include "support.hpp"

namespace cafmcp::test {
namespace {

const std::string list_changed = "notifications/resources/list_changed";

resource_store_options store_options(std::chrono::milliseconds ttl, std::size_t max) {
  resource_store_options o;
  o.ttl = ttl;
  o.max_entries = max;
  o.representations = {store_representation::packet("store://packet/{id}"),
                       store_representation::text("store://content/{id}"),
                       store_representation::blob("store://blob/{id}")};
  return o;
}

store_entry entry(std::string id, std::string text) {
  store_entry e;
  e.id = std::move(id);
  e.title = "Title " + e.id;
  e.content = std::move(text);
  e.mime_type = "text/markdown";
  return e;
}

std::optional<json> removal_of(in_process_client& c, const std::string& uri,
                               std::chrono::milliseconds wait = 5s) {
  return c.wait_for(
    [&](const json& m) {
      return is_method(m, list_changed) && m["params"]["operation"] == "removed" && m["params"]["uri"] == uri;
    },
    wait);
}

TEST(ResourceStore, StoringListsNewestFirstWithOperationMetadata) {
  server srv(all_on());
  resource_store store(srv, store_options(std::chrono::minutes(5), 10));
  in_process_client c(srv);
  c.initialize();
  EXPECT_TRUE(store.put(entry("a", "alpha")));
  EXPECT_TRUE(store.put(entry("b", "beta")));
  for (auto id : {"a", "b"}) {
    auto n = c.wait_for([&](const json& m) {
      return is_method(m, list_changed) && m["params"]["uri"] == std::string("store://packet/") + id;
    });
    ASSERT_TRUE(n) << id;
    EXPECT_EQ((*n)["params"]["operation"], "added");
    EXPECT_EQ((*n)["params"]["resource"]["title"], std::string("Title ") + id);
  }
  auto list = c.request("resources/list")["result"]["resources"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["uri"], "store://packet/b"); // newest first
  EXPECT_EQ(list[1]["uri"], "store://packet/a");
  EXPECT_EQ(list[1]["size"], 5);
  EXPECT_TRUE(list[1]["annotations"]["lastModified"].get<std::string>().ends_with("Z"));
  EXPECT_EQ(store.ids(), (std::vector<std::string>{"b", "a"}));
}

TEST(ResourceStore, EveryRepresentationReadsAndOtherShapesAreRefused) {
  server srv(all_on());
  resource_store store(srv, store_options(std::chrono::minutes(5), 10));
  store.put(entry("doc1", "# hello"));
  in_process_client c(srv);
  c.initialize();
  auto packet = c.request("resources/read", {{"uri", "store://packet/doc1"}})["result"]["contents"][0];
  EXPECT_EQ(json::parse(packet["text"].get<std::string>())["content"], "# hello");
  auto content = c.request("resources/read", {{"uri", "store://content/doc1"}})["result"]["contents"][0];
  EXPECT_EQ(content["text"], "# hello");
  EXPECT_EQ(content["mimeType"], "text/markdown");
  auto blob = c.request("resources/read", {{"uri", "store://blob/doc1"}})["result"]["contents"][0];
  EXPECT_EQ(blob["blob"], "IyBoZWxsbw==");
  for (auto uri : {"store://content/missing", "store://content/doc1/extra", "store://other/doc1",
                   "https://example.com/doc1"}) {
    auto r = c.request("resources/read", {{"uri", uri}});
    ASSERT_TRUE(r.contains("error")) << uri;
    EXPECT_EQ(r["error"]["code"], -32002) << uri;
    EXPECT_EQ(r["error"]["data"]["uri"], uri);
  }
  EXPECT_THROW(store.put(entry("a/b", "x")), std::invalid_argument);
}

TEST(ResourceStore, ReplacingSaysUpdatedAndTellsSubscribers) {
  server srv(all_on());
  resource_store store(srv, store_options(std::chrono::minutes(5), 10));
  store.put(entry("a", "v1"));
  in_process_client c(srv);
  c.initialize();
  c.request("resources/subscribe", {{"uri", "store://content/a"}});
  c.request("resources/subscribe", {{"uri", "store://packet/a"}});
  // A longer text: the listed size changes, so the descriptor differs even
  // when both puts fall in one millisecond of lastModified.
  EXPECT_FALSE(store.put(entry("a", "v2 is longer"))); // not new
  auto changed = c.wait_for(
    [](const json& m) { return is_method(m, list_changed) && m["params"]["operation"] == "updated"; });
  ASSERT_TRUE(changed);
  EXPECT_EQ((*changed)["params"]["resource"]["size"], 12);
  for (auto uri : {"store://packet/a", "store://content/a"})
    EXPECT_TRUE(c.wait_for([&](const json& m) {
      return is_method(m, "notifications/resources/updated") && m["params"]["uri"] == uri;
    }))
      << uri;
  EXPECT_EQ(c.request("resources/read", {{"uri", "store://content/a"}})["result"]["contents"][0]["text"],
            "v2 is longer");
}

TEST(ResourceStore, ExpiryRemovesOnTimeWithoutAnyRead) {
  server srv(all_on());
  resource_store store(srv, store_options(std::chrono::milliseconds(200), 10));
  in_process_client c(srv);
  c.initialize();
  store.put(entry("short", "lived"));
  // The actor's timer removes it; nobody reads meanwhile.
  auto removed = removal_of(c, "store://packet/short");
  ASSERT_TRUE(removed);
  EXPECT_EQ((*removed)["params"]["resource"]["name"], "short");
  EXPECT_TRUE(c.request("resources/list")["result"]["resources"].empty());
  EXPECT_EQ(c.request("resources/read", {{"uri", "store://content/short"}})["error"]["code"], -32002);
  EXPECT_FALSE(store.get("short"));
}

TEST(ResourceStore, TheLeastRecentlyUsedEntryIsEvictedFirst) {
  server srv(all_on());
  resource_store store(srv, store_options(std::chrono::minutes(5), 2));
  in_process_client c(srv);
  c.initialize();
  store.put(entry("a", "1"));
  store.put(entry("b", "2"));
  ASSERT_TRUE(store.get("a")); // a is now more recently used than b
  store.put(entry("c", "3"));
  ASSERT_TRUE(removal_of(c, "store://packet/b"));
  EXPECT_EQ(store.ids(), (std::vector<std::string>{"c", "a"}));
  auto list = c.request("resources/list")["result"]["resources"];
  ASSERT_EQ(list.size(), 2u);
  EXPECT_EQ(list[0]["uri"], "store://packet/c");
}

TEST(ResourceStore, RemoveUnpublishesTheEntryOnce) {
  server srv(all_on());
  resource_store store(srv, store_options(std::chrono::minutes(5), 10));
  in_process_client c(srv);
  c.initialize();
  store.put(entry("a", "1"));
  store.put(entry("b", "2"));
  EXPECT_TRUE(store.remove("a"));
  auto removed = removal_of(c, "store://packet/a");
  ASSERT_TRUE(removed);
  EXPECT_EQ((*removed)["params"]["resource"]["name"], "a");
  EXPECT_FALSE(store.remove("a")); // already gone
  EXPECT_FALSE(store.remove("never-stored"));
  EXPECT_EQ(store.ids(), (std::vector<std::string>{"b"}));
  EXPECT_FALSE(store.get("a"));
  for (auto uri : {"store://packet/a", "store://content/a", "store://blob/a"})
    EXPECT_EQ(c.request("resources/read", {{"uri", uri}})["error"]["code"], -32002) << uri;
  auto list = c.request("resources/list")["result"]["resources"];
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0]["uri"], "store://packet/b");
  // The second remove() said nothing: one removal in all.
  EXPECT_TRUE(
    c.take([](const json& m) { return is_method(m, list_changed) && m["params"]["operation"] == "removed"; })
      .empty());
}

// Replacing an entry restarts its TTL: the first put's timer, still
// pending, must not remove the replacement. Timers fire in the order they
// were set, so with `marker` stored between the two puts, its expiry comes
// after the first put's timer and before the replacement's: the
// replacement outlives the marker. (Without the generation check the old
// timer removes "a" before the marker.)
TEST(ResourceStore, AReplacedEntrysOldTimerDoesNotRemoveTheReplacement) {
  server srv(all_on());
  resource_store store(srv, store_options(std::chrono::milliseconds(300), 10));
  in_process_client c(srv);
  c.initialize();
  store.put(entry("a", "first"));
  store.put(entry("marker", "m"));
  store.put(entry("a", "second"));
  std::vector<std::string> order;
  for (int i = 0; i < 2; ++i) {
    auto removed = c.wait_for(
      [](const json& m) { return is_method(m, list_changed) && m["params"]["operation"] == "removed"; });
    ASSERT_TRUE(removed) << "removal " << i;
    order.push_back((*removed)["params"]["uri"]);
  }
  EXPECT_EQ(order, (std::vector<std::string>{"store://packet/marker", "store://packet/a"}));
  EXPECT_TRUE(store.ids().empty());
}

// A read past the TTL finds nothing even while the entry's timer has not
// fired yet (the store's clock runs an hour ahead; the timer is 5 minutes
// away), and that read unpublishes it: list_changed "removed" at once.
TEST(ResourceStore, AReadPastTheTtlFindsNothingBeforeTheTimerFires) {
  server srv(all_on());
  auto ahead = std::make_shared<std::atomic<bool>>(false);
  auto o = store_options(std::chrono::minutes(5), 10);
  o.now = [ahead] {
    return std::chrono::steady_clock::now() + (ahead->load() ? std::chrono::hours(1) : std::chrono::hours(0));
  };
  resource_store store(srv, o);
  in_process_client c(srv);
  c.initialize();
  store.put(entry("stale", "old"));
  store.put(entry("other", "x"));
  ASSERT_TRUE(store.get("stale")); // within its TTL
  ahead->store(true);
  auto read = c.request("resources/read", {{"uri", "store://content/stale"}});
  ASSERT_TRUE(read.contains("error")) << read.dump();
  EXPECT_EQ(read["error"]["code"], -32002);
  ASSERT_TRUE(removal_of(c, "store://packet/stale"));
  EXPECT_FALSE(store.get("stale"));
  EXPECT_EQ(store.ids(), (std::vector<std::string>{"other"})); // not read: still listed
}

} // namespace
} // namespace cafmcp::test

// Several cafmcp::server nodes in one process sharing one change log (in
// memory, and a real redis-server), each with in-process client sessions:
// every change reaches every session on every node exactly once and in the
// same order; data-only items replicate; a late node recreates them.
#include <condition_variable>
#include <deque>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "cafmcp/in_process.hpp"
#include "cafmcp/server.hpp"

#include "actors/server_access.hpp"
#include "redis_process.hpp"
#include "actor_loop.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

bool is_notification(const json& m) { return m.contains("method") && !m.contains("id"); }

// What identifies a change in a notification: method, operation, uri|name.
std::string summary(const json& m) {
  auto p = m.value("params", json::object());
  return m["method"].get<std::string>() + " " + p.value("operation", "") + " "
         + p.value("uri", p.value("name", ""));
}

// What a session heard so far, without waiting.
std::vector<std::string> heard(in_process_client& c) {
  std::vector<std::string> out;
  for (auto& m : c.take(is_notification))
    out.push_back(summary(m));
  return out;
}

struct log_kind {
  const char* name;
  bool redis;
};

class Cluster : public ::testing::TestWithParam<log_kind> {
protected:
  void SetUp() override {
    static int n = 0;
    if (GetParam().redis) {
      redis_ = std::make_unique<redis_process>();
      url_ = redis_->url();
    } else {
      url_ = "memory://nodes-test-" + std::to_string(++n);
    }
  }

  server_options node(const std::string& id, std::size_t outbox = 10000) {
    auto o = all_on();
    o.cluster.url = url_;
    o.cluster.node_id = id;
    o.cluster.secret = "test secret";
    o.cluster.outbox_limit = outbox;
    o.cluster.log_timeout = std::chrono::milliseconds(300);
    return o;
  }

  /// A session on `srv`, initialized and subscribed to `uris`.
  std::unique_ptr<in_process_client> session(server& srv, std::vector<std::string> uris = {}) {
    auto c = std::make_unique<in_process_client>(srv);
    c->initialize();
    for (auto& u : uris)
      EXPECT_TRUE(c->request("resources/subscribe", {{"uri", u}}).contains("result"));
    return c;
  }

  /// What `c` hears up to and including the first list_changed naming
  /// `marker` (or, past 10 s without it, what it heard).
  std::vector<std::string> heard_until(in_process_client& c, const std::string& marker) {
    std::vector<std::string> all;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (all.empty() || !all.back().ends_with(" " + marker)) {
      auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      auto m = c.wait_for(is_notification, std::max(left, std::chrono::milliseconds(1)));
      if (!m)
        break;
      all.push_back(summary(*m));
    }
    return all;
  }

  std::unique_ptr<redis_process> redis_;
  std::string url_;
};

TEST_P(Cluster, AChangeOnOneNodeReachesEverySessionOnEveryNodeOnce) {
  server n1(node("n1")), n2(node("n2")), n3(node("n3"));
  auto s1 = session(n1), s2 = session(n2), s3 = session(n3);
  ASSERT_TRUE(applied(n1.add_resource(text_resource("test://one", "one", "1"))));
  // Ready once handed to this node's sessions: s1 has it without waiting.
  auto here = heard(*s1);
  ASSERT_EQ(here, std::vector<std::string>{"notifications/resources/list_changed added test://one"});
  for (auto* s : {s2.get(), s3.get()})
    EXPECT_EQ(heard_until(*s, "test://one"), here);
  // The marker after it shows that nothing came twice.
  ASSERT_TRUE(applied(n3.add_prompt(simple_prompt("marker"))));
  for (auto* s : {s1.get(), s2.get(), s3.get()})
    EXPECT_EQ(heard_until(*s, "marker"),
              std::vector<std::string>{"notifications/prompts/list_changed added marker"});
}

TEST_P(Cluster, ABurstFromEveryNodeArrivesInOneOrderEverywhere) {
  server n1(node("n1")), n2(node("n2")), n3(node("n3"));
  std::vector<server*> nodes{&n1, &n2, &n3};
  std::vector<std::unique_ptr<in_process_client>> sessions;
  for (auto* n : nodes)
    for (int i = 0; i < 2; ++i)
      sessions.push_back(session(*n));
  // Data-only, so it replicates: once a session heard of it, its node has it.
  ASSERT_TRUE(applied(n1.add_resource(text_resource("test://watched", "watched", "0"))));
  for (auto& s : sessions) {
    ASSERT_EQ(heard_until(*s, "test://watched").size(), 1u);
    ASSERT_TRUE(s->request("resources/subscribe", {{"uri", "test://watched"}}).contains("result"));
  }
  constexpr int per_node = 67;
  std::vector<std::thread> makers;
  std::vector<std::vector<std::future<bool>>> made(3);
  for (int k = 0; k < 3; ++k)
    makers.emplace_back([&, k] {
      auto& n = *nodes[k];
      for (int i = 0; i < per_node; ++i) {
        auto tag = "n" + std::to_string(k + 1) + "-" + std::to_string(i);
        switch (i % 4) {
          case 0: made[k].push_back(n.add_resource(text_resource("test://" + tag, tag, tag))); break;
          case 1: made[k].push_back(n.add_tool(echo_tool("t" + tag))); break;
          case 2: made[k].push_back(n.add_prompt(simple_prompt("p" + tag))); break;
          default:
            made[k].push_back(n.set_resource_contents("test://watched",
                                                      {resource_contents::make_text("test://watched", tag)}));
        }
      }
    });
  for (auto& t : makers)
    t.join();
  // All logged (each node's own sessions have them): the marker comes after.
  for (auto& node_made : made)
    for (auto& f : node_made)
      ASSERT_TRUE(applied(std::move(f)));
  ASSERT_TRUE(applied(n2.add_prompt(simple_prompt("end"))));
  auto first = heard_until(*sessions[0], "end");
  ASSERT_EQ(first.size(), 3u * per_node + 1);
  for (std::size_t i = 1; i < sessions.size(); ++i)
    EXPECT_EQ(heard_until(*sessions[i], "end"), first) << "session " << i;
}

TEST_P(Cluster, DataOnlyResourcesReplicateAndALateNodeRecreatesThem) {
  server n1(node("n1")), n2(node("n2"));
  auto s2 = session(n2);
  ASSERT_TRUE(applied(n1.add_resource(text_resource("test://doc", "doc", "first"))));
  ASSERT_TRUE(
    applied(n1.set_resource_contents("test://doc", {resource_contents::make_text("test://doc", "second")})));
  ASSERT_EQ(heard_until(*s2, "test://doc").size(), 1u);
  // Told of it, a session finds it on its own node (applied before the notice).
  auto read = s2->request("resources/read", {{"uri", "test://doc"}});
  ASSERT_TRUE(read.contains("result")) << read.dump();
  // The contents change was logged after the list change: let it land.
  ASSERT_TRUE(applied(n1.add_prompt(simple_prompt("barrier"))));
  heard_until(*s2, "barrier");
  read = s2->request("resources/read", {{"uri", "test://doc"}});
  EXPECT_EQ(read["result"]["contents"][0]["text"], "second");

  server late(node("late")); // joins after: recreates from the log, announces nothing old
  auto s3 = session(late);
  ASSERT_TRUE(applied(n1.add_prompt(simple_prompt("after"))));
  EXPECT_EQ(heard_until(*s3, "after"),
            std::vector<std::string>{"notifications/prompts/list_changed added after"});
  read = s3->request("resources/read", {{"uri", "test://doc"}});
  ASSERT_TRUE(read.contains("result")) << read.dump();
  EXPECT_EQ(read["result"]["contents"][0]["text"], "second");

  ASSERT_TRUE(applied(n2.remove_resource("test://doc"))); // removals cross too
  ASSERT_TRUE(applied(n1.add_prompt(simple_prompt("gone"))));
  heard_until(*s3, "gone");
  EXPECT_EQ(s3->request("resources/read", {{"uri", "test://doc"}})["error"]["code"], -32002);
}

// Tools carry code: each node registers its own, and a removal crosses to
// every node. A session that called the tool (and so holds a copy of its
// node's tools, actors/published_tools.hpp) finds it gone once told.
TEST_P(Cluster, AToolRemovedOnAnotherNodeIsGoneForTheNextCallHere) {
  server n1(node("n1")), n2(node("n2"));
  ASSERT_TRUE(applied(n1.add_tool(echo_tool("t"))));
  ASSERT_TRUE(applied(n2.add_tool(echo_tool("t"))));
  auto s2 = session(n2);
  auto call = [&] { return s2->request("tools/call", {{"name", "t"}, {"arguments", {{"text", "hi"}}}}); };
  for (int i = 0; i < 2; ++i) // the first through the server actor, the second on the session
    ASSERT_EQ(call()["result"]["content"][0]["text"], "hi");
  ASSERT_TRUE(applied(n1.remove_tool("t")));
  auto removed = s2->wait_for(
    [](const json& m) {
      return m.value("method", "") == "notifications/tools/list_changed"
             && m["params"].value("operation", "") == "removed";
    },
    std::chrono::seconds(10));
  ASSERT_TRUE(removed);
  auto gone = call();
  EXPECT_EQ(gone["error"]["code"], -32602) << gone.dump();
}

// Two nodes change one resource at once: each made its own change first,
// so without the log deciding, each would end with the other's value.
TEST_P(Cluster, ConcurrentChangesToOneResourceEndTheSameOnEveryNode) {
  server n1(node("n1")), n2(node("n2"));
  auto s2 = session(n2);
  ASSERT_TRUE(applied(n1.add_resource(text_resource("test://contested", "contested", "0"))));
  heard_until(*s2, "test://contested");
  std::vector<std::future<bool>> made1, made2;
  std::thread a([&] {
    for (int i = 0; i < 50; ++i)
      made1.push_back(n1.set_resource_contents(
        "test://contested", {resource_contents::make_text("test://contested", "n1-" + std::to_string(i))}));
  });
  std::thread b([&] {
    for (int i = 0; i < 50; ++i)
      made2.push_back(n2.set_resource_contents(
        "test://contested", {resource_contents::make_text("test://contested", "n2-" + std::to_string(i))}));
  });
  a.join();
  b.join();
  for (auto* made : {&made1, &made2})
    for (auto& f : *made)
      ASSERT_TRUE(applied(std::move(f)));
  // Both have read every change back (each future settles on its own node
  // only): a marker from each, heard on the other, says so.
  auto s1 = session(n1);
  ASSERT_TRUE(applied(n1.add_prompt(simple_prompt("from-n1"))));
  ASSERT_TRUE(applied(n2.add_prompt(simple_prompt("from-n2"))));
  heard_until(*s1, "from-n2");
  heard_until(*s2, "from-n1");
  auto text = [](in_process_client& c) {
    return c.request("resources/read", {{"uri", "test://contested"}})["result"]["contents"][0]["text"];
  };
  EXPECT_EQ(text(*s1), text(*s2));
}

INSTANTIATE_TEST_SUITE_P(Logs, Cluster, ::testing::Values(log_kind{"memory", false}, log_kind{"redis", true}),
                         [](const auto& info) { return std::string(info.param.name); });

// The log reader hands entries to the server actor, numbered; entries lost
// on the way (a server actor between incarnations drops its mailbox) show
// as a gap, and the next entry is announced as a resync besides.
TEST_P(Cluster, TheLastClaimOfAGetStreamInTheLogOwnsItAndEarlierOnesAreTakenOver) {
  server n1(node("n1")), n2(node("n2"));
  auto first = n1.claim_stream("session-a");
  // A change n1 makes after its claim is read back after it: the claim is logged.
  ASSERT_TRUE(applied(n1.add_prompt(simple_prompt("after-claim-1"))));
  // Once its reader has caught up with the log (a fresh node's lease starts lapsed).
  EXPECT_TRUE(becomes([&] { return first->lease_holds(); }));
  EXPECT_FALSE(first->taken_over());
  auto second = n2.claim_stream("session-a");
  auto other = n1.claim_stream("session-b"); // another session's stream is not touched
  ASSERT_TRUE(becomes([&] { return first->taken_over(); }));
  ASSERT_TRUE(applied(n2.add_prompt(simple_prompt("after-claim-2"))));
  EXPECT_FALSE(second->taken_over());
  // n1 takes it back: n2's claim is now the earlier one.
  auto third = n1.claim_stream("session-a");
  ASSERT_TRUE(becomes([&] { return second->taken_over(); }));
  EXPECT_FALSE(third->taken_over());
  EXPECT_FALSE(other->taken_over());
}

TEST(ClusterNode, EntriesLostBetweenReaderAndServerActorBecomeAResync) {
  auto o = all_on();
  o.cluster.url = "memory://lost-between";
  o.cluster.secret = "s";
  server n(o);
  in_process_client c(n);
  c.initialize();
  ASSERT_TRUE(applied(n.add_prompt(simple_prompt("first"))));
  ASSERT_TRUE(c.wait_for_method("notifications/prompts/list_changed"));
  auto& rt = *server_access::of(n).rt;
  actors::logged_change skipped;
  skipped.record.origin = "elsewhere/1";
  skipped.record.seq = 1;
  skipped.record.list_change =
    protocol::change{protocol::item_kind::tool, protocol::operation::added, "t", {{"name", "t"}}};
  skipped.handed = rt.logged_handled.load() + 2; // one never arrived
  caf::anon_send(rt.server(), actors::logged_atom::value, std::move(skipped));
  std::vector<std::string> methods;
  for (int i = 0; i < 4; ++i) // the tool change, then the resync's three list_changed
    if (auto m = c.wait_for(is_notification))
      methods.push_back(summary(*m));
  EXPECT_EQ(methods, (std::vector<std::string>{
                       "notifications/tools/list_changed added t", "notifications/resources/list_changed  ",
                       "notifications/tools/list_changed  ", "notifications/prompts/list_changed  "}));
}

TEST(ClusterOptions, ABadUrlOrNoSecretIsRefusedAtStart) {
  auto o = all_on();
  o.cluster.url = "redis//nope";
  o.cluster.secret = "s";
  EXPECT_THROW(server{o}, std::invalid_argument);
  o.cluster.url = "memory://x";
  o.cluster.secret.clear();
  EXPECT_THROW(server{o}, std::invalid_argument);
}

} // namespace
} // namespace cafmcp::test

namespace cafmcp::test {
namespace {

server_options lone_node(const std::string& url) {
  auto o = all_on();
  o.cluster.url = url;
  o.cluster.secret = "s";
  return o;
}

// The log reader's changes go to the loop that offered itself, and the
// server actor and the notifier run there: the session is handed its
// notification on the loop's thread (before, on a CAF worker), as a single
// node's sessions are when the change was made on their loop.
//
// The changes are made on another node, so nothing but the log wakes this
// node's server actor (a change made here wakes it on a CAF worker first,
// and the change read back can find it still there, as it should). The
// session was set up from this thread: its last setup messages run on CAF
// workers, and a session still inside one takes the notification there. So
// the first changes may be handed over on a worker; without the loop, every
// change is. Once one is handed over on the loop, the session was idle when
// the loop woke it, nothing else wakes it, and the changes after it stay on
// the loop.
TEST(ClusterNode, ChangesReadFromTheLogAreAnnouncedOnTheLoopThatTakesThem) {
  auto node = [](const char* id) {
    auto o = lone_node("memory://announced-on-a-loop");
    o.cluster.node_id = id;
    return o;
  };
  server n1(node("n1")), n2(node("n2"));
  std::shared_ptr<connection> conn;
  auto out = recorded_session(n1, conn);
  test_loop loop(n1, true);
  const std::vector<std::thread::id> on_the_loop{loop.id()};
  auto handed_over_on = [&](const std::string& name) {
    EXPECT_TRUE(applied(n2.add_prompt(simple_prompt(name))));
    auto quoted = "\"" + name + "\"";
    EXPECT_TRUE(becomes([&] { return !out->sent_on(quoted).empty(); }));
    return out->sent_on(quoted);
  };
  int tries = 0;
  while (handed_over_on("settling-" + std::to_string(tries)) != on_the_loop)
    ASSERT_LT(++tries, 50) << "no change reached the session on the loop's thread";
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(handed_over_on("on-the-loop-" + std::to_string(i)), on_the_loop);
  conn->close();
}

// A batch handed to a loop that stops before running it still reaches the
// server actor (through CAF's scheduler), once: nothing read from the log
// is dropped on the way.
TEST(ClusterNode, ABatchItsLoopNeverRanIsAnnouncedAllTheSame) {
  server n(lone_node("memory://never-ran"));
  std::shared_ptr<connection> conn;
  auto out = recorded_session(n, conn);
  std::future<bool> changed;
  {
    test_loop stalled(n, false);
    changed = n.add_prompt(simple_prompt("held"));
    ASSERT_TRUE(stalled.holds_a_job());
    EXPECT_TRUE(out->sent_on("held").empty());
  }
  EXPECT_TRUE(applied(std::move(changed)));
  EXPECT_TRUE(becomes([&] { return !out->sent_on("held").empty(); }));
  ASSERT_TRUE(applied(n.add_prompt(simple_prompt("after"))));
  EXPECT_TRUE(becomes([&] { return !out->sent_on("after").empty(); }));
  EXPECT_EQ(out->sent_on("held").size(), 1u);
  conn->close();
}

// HTTP with a token verifier binds a session to the subject that made it;
// the log's session record carries that subject, so another node serves
// the session to it only (the transport answers anyone else 404).
TEST(ClusterAuth, ANodeAdoptsASessionOnlyForTheSubjectThatMadeIt) {
  auto opts = [](const char* id) {
    auto o = all_on();
    o.cluster.url = "memory://nodes-test-owner";
    o.cluster.node_id = id;
    o.cluster.secret = "test secret";
    return o;
  };
  server n1(opts("n1")), n2(opts("n2"));
  auto alice = std::make_shared<const auth::identity>(auth::identity{"alice", "app", {}, json::object(), {}});
  auth::identity bob{"bob", "app", {}, json::object(), {}};
  auto out = std::make_shared<recording_outbound>();
  auto conn = n1.connect(out, "session-owned");
  auto init = jsonrpc::parse(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":)"
                             R"("2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})",
                             {});
  conn->receive(std::get<jsonrpc::message>(std::move(init)), alice);
  // The answer goes out once the session's record is read back from the log.
  ASSERT_TRUE(becomes([&] { return out->answered("1"); }));
  ASSERT_TRUE(becomes([&] { return n2.adopt(std::make_shared<recording_outbound>(), "session-owned", alice.get()) != nullptr; }));
  EXPECT_EQ(n2.adopt(std::make_shared<recording_outbound>(), "session-owned", &bob), nullptr);
  conn->close();
}

// Clustered on Redis, a task's record is shared but its handler runs on the
// node that created it. A tasks/cancel served by another node changes the
// record only; the running node's task actor, looking at its record every
// poll interval, sees it and tells the handler (cancelled()).
TEST(ClusterTasks, ACancelServedByAnotherNodeReachesTheHandler) {
  redis_process redis;
  auto opts = [&](const char* id) {
    auto o = all_on();
    o.cluster.url = redis.url();
    o.cluster.node_id = id;
    o.cluster.secret = "test secret";
    o.tasks.poll_interval = std::chrono::milliseconds(50);
    return o;
  };
  server n1(opts("n1")), n2(opts("n2"));
  auto saw_cancel = std::make_shared<std::promise<void>>();
  tool t;
  t.name = "wait_for_cancel";
  t.input_schema = {{"type", "object"}};
  t.tasks = task_support::required;
  t.handler = [saw_cancel](const json&, request_context& ctx) {
    // Bounded: a handler that is never told gives up, and the test fails.
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (!ctx.cancelled() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    if (ctx.cancelled())
      saw_cancel->set_value();
    return tool_result::text("ended");
  };
  ASSERT_TRUE(n1.add_tool(t).get());
  ASSERT_TRUE(n2.add_tool(t).get());
  in_process_client c1(n1), c2(n2);
  c1.initialize();
  c2.initialize();
  auto created = c1.request("tools/call", {{"name", "wait_for_cancel"}, {"arguments", json::object()},
                                           {"task", {{"ttl", 60000}}}});
  ASSERT_TRUE(created.contains("result")) << created.dump();
  auto id = created["result"]["task"]["taskId"].get<std::string>();
  auto cancelled = c2.request("tasks/cancel", {{"taskId", id}});
  ASSERT_TRUE(cancelled.contains("result")) << cancelled.dump();
  EXPECT_EQ(cancelled["result"]["status"], "cancelled");
  EXPECT_EQ(saw_cancel->get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
  auto read = c1.request("tasks/get", {{"taskId", id}});
  EXPECT_EQ(read["result"]["status"], "cancelled"); // whatever the handler returned
}

} // namespace
} // namespace cafmcp::test

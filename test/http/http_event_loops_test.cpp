// What only several event loops do: sessions spread over the loops, each
// id naming its loop, and connections moving to the loop of the session
// their request belongs to (the rest of the HTTP suites run with three
// loops too, as cafmcp_http_multiloop_tests).
#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "http_fixture.hpp"
#include "where_tool.hpp"

namespace cafmcp::test {
namespace {

class EventLoops : public HttpTest {
protected:
  std::size_t session_limit = http_options{}.max_sessions;
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.event_loops = 3;
    o.max_sessions = session_limit;
    return o;
  }
};

std::size_t loop_named(const std::string& session_id) {
  return std::stoul(session_id.substr(session_id.size() - 1), nullptr, 16);
}

json call_hello(int id) {
  return json::parse(rpc(id, "tools/call", {{"name", "hello"}, {"arguments", json::object()}}));
}

// Connections take turns over the loops, and a session lives on the loop of
// the connection that initialized it.
TEST_F(EventLoops, SessionsAreSpreadOverTheLoopsTheirIdsName) {
  std::set<std::size_t> loops;
  std::vector<open_session> sessions;
  for (int i = 0; i < 6; ++i) {
    sessions.push_back(initialize());
    ASSERT_EQ(sessions.back().id.size(), 32u);
    auto loop = loop_named(sessions.back().id);
    EXPECT_LT(loop, 3u);
    loops.insert(loop);
  }
  EXPECT_EQ(loops.size(), 3u);
  EXPECT_EQ(transport->stats().sessions, 6u);
}

TEST_F(EventLoops, OneConnectionServesSessionsOnEveryLoopInTurn) {
  std::vector<open_session> sessions;
  for (int i = 0; i < 3; ++i)
    sessions.push_back(initialize());
  raw_http shared(port);
  int id = 10;
  for (int round = 0; round < 2; ++round)
    for (auto& s : sessions) {
      shared.send("POST", call_hello(++id).dump(), {{"Mcp-Session-Id", s.id}});
      auto r = shared.read_reply();
      ASSERT_EQ(r.status, 200);
      EXPECT_EQ(r.header("mcp-session-id"), s.id);
      EXPECT_EQ(r.json_body()["id"], id);
      EXPECT_EQ(r.json_body()["result"]["content"][0]["text"], "ok");
    }
}

// The bytes read past a request that moves the connection go along with it.
TEST_F(EventLoops, RequestsPipelinedBehindAMovedRequestAreAnswered) {
  auto a = initialize(); // loop 0
  auto b = initialize(); // loop 1
  raw_http c(port);      // loop 2
  c.send_raw(c.request_text("POST", call_hello(1).dump(), {{"Mcp-Session-Id", a.id}})
             + c.request_text("POST", call_hello(2).dump(), {{"Mcp-Session-Id", b.id}})
             + c.request_text("POST", call_hello(3).dump(), {{"Mcp-Session-Id", a.id}}));
  for (auto [id, session] : {std::pair{1, &a}, {2, &b}, {3, &a}}) {
    auto r = c.read_reply();
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.header("mcp-session-id"), session->id);
    EXPECT_EQ(r.json_body()["id"], id);
  }
}

TEST_F(EventLoops, ABroadcastReachesStreamsThatMovedToEveryLoop) {
  std::vector<open_session> sessions;
  for (int i = 0; i < 3; ++i)
    sessions.push_back(initialize()); // loops 0, 1, 2
  std::vector<std::unique_ptr<raw_http>> streams;
  for (int i : {2, 0, 1}) // their streams' connections land on loops 0, 1, 2: each moves
    streams.push_back(open_stream(sessions[static_cast<std::size_t>(i)]));
  srv->add_tool(text_tool("everyone")).get();
  for (auto& s : streams) {
    auto e = s->next_event();
    ASSERT_TRUE(e);
    auto m = json::parse(e->data);
    EXPECT_EQ(m["method"], "notifications/tools/list_changed");
    EXPECT_EQ(m["params"]["name"], "everyone");
  }
  EXPECT_EQ(transport->stats().open_streams, 3u);
}

TEST_F(EventLoops, AnIdNamingNoLoopIsAnUnknownSession) {
  auto s = initialize();
  auto other = s.id;
  other.back() = 'f'; // loop 15 of 3
  raw_http c(port);
  c.send("POST", rpc(2, "ping"), {{"Mcp-Session-Id", other}});
  EXPECT_EQ(c.read_reply().status, 404);
}

class TwoSessionsOverThreeLoops : public EventLoops {
protected:
  TwoSessionsOverThreeLoops() { session_limit = 2; }
};

TEST_F(TwoSessionsOverThreeLoops, TheSessionLimitCountsEveryLoop) {
  auto a = initialize(); // loop 0
  auto b = initialize(); // loop 1
  raw_http third(port);  // loop 2: its own loop holds no session yet
  third.send("POST", initialize_body());
  auto r = third.read_reply();
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.json_body()["error"]["message"], "Too many sessions");
  b.conn->send("DELETE", "", {{"Mcp-Session-Id", b.id}});
  ASSERT_EQ(b.conn->read_reply().status, 200);
  third.send("POST", initialize_body());
  EXPECT_EQ(third.read_reply().status, 200);
  EXPECT_EQ(transport->stats().sessions, 2u);
}


// Where a quick handler runs: on the event loop that read its request (its
// session's loop, named "cafmcp-http-N"), as the actors it woke do, or with
// actors_on_event_loops off on an actor thread, never on a loop.
class ActorsOnLoops : public HttpTest {
protected:
  bool on_loops = true;
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.actors_on_event_loops = on_loops;
    return o;
  }
  void SetUp() override {
    HttpTest::SetUp();
    srv->add_tool(where_tool()).get();
  }
  struct where_calls {
    int on_loop = 0;     // calls that ran on the session's loop
    int longest_run = 0; // of them, the most in a row
  };
  // Calls `where` up to `calls` times, stopping once `enough` in a row ran
  // on `session`'s loop; every call off it ran off every loop.
  where_calls call_where(const open_session& session, int calls, int enough) {
    std::string loop = "cafmcp-http-" + std::to_string(loop_named(session.id));
    where_calls seen;
    int run = 0;
    for (int id = 1; id <= calls && seen.longest_run < enough; ++id) {
      session.conn->send("POST", rpc(id, "tools/call", {{"name", "where"}, {"arguments", json::object()}}),
                         {{"Mcp-Session-Id", session.id}});
      auto r = session.conn->read_reply();
      EXPECT_EQ(r.status, 200);
      std::string name = r.json_body()["result"]["content"][0]["text"];
      run = name == loop ? run + 1 : 0;
      seen.on_loop += run > 0;
      seen.longest_run = std::max(seen.longest_run, run);
      if (name != loop)
        EXPECT_EQ(name.rfind("cafmcp-http-", 0), std::string::npos) << name;
    }
    return seen;
  }
};

// The first calls may still meet the server actor running on an actor
// thread (initialize() ends with stats(), asked from this thread), and a
// worker taken off its CPU while it holds the actors keeps them while calls
// keep coming (3 of 300 runs beside a parallel build had fewer than 10 of
// their first 20 calls on the loop). Once nothing but the loop wakes the
// actors, calls stay on it: ten in a row within 1,000.
TEST_F(ActorsOnLoops, AQuickCallRunsOnTheLoopThatReadIt) {
  auto session = initialize();
  EXPECT_GE(call_where(session, 1000, 10).longest_run, 10);
}

class ActorsOnWorkers : public ActorsOnLoops {
protected:
  void SetUp() override {
    on_loops = false;
    ActorsOnLoops::SetUp();
  }
};

TEST_F(ActorsOnWorkers, AQuickCallNeverRunsOnALoop) {
  auto session = initialize();
  EXPECT_EQ(call_where(session, 20, 1).on_loop, 0);
}

} // namespace
} // namespace cafmcp::test

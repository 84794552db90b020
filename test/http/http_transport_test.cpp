// Streamable HTTP against a real server on a loopback socket: status codes,
// sessions, streams, resumption, and a client that stops reading.
#include <atomic>
#include <condition_variable>
#include <future>
#include <map>
#include <mutex>
#include <set>
#include <thread>
#include <utility>

#include "http_fixture.hpp"

namespace cafmcp::test {
namespace {

using ms = std::chrono::milliseconds;

TEST_F(HttpTest, InitializeIssuesAnUnguessableVisibleAsciiSessionId) {
  raw_http c(port);
  c.send("POST", initialize_body(), {{"MCP-Protocol-Version", "2025-11-25"}});
  auto r = c.read_reply();
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-type"), "application/json");
  auto id = r.header("mcp-session-id");
  ASSERT_EQ(id.size(), 32u); // 128 bits, hex (124 random with several event loops)
  for (char ch : id)
    EXPECT_TRUE(ch >= 0x21 && ch <= 0x7E);
  EXPECT_EQ(r.json_body()["result"]["protocolVersion"], "2025-11-25");
  auto second = initialize();
  EXPECT_NE(second.id, id);
}

// The session ends while its only request is answered: the answer must
// still go out, and nothing may touch the request's entry afterwards (it
// once did, and one such request ended the whole server).
TEST_F(HttpTest, AFailedInitializeIsAnsweredAndLeavesNoSession) {
  raw_http c(port);
  c.send("POST", json{{"jsonrpc", "2.0"},
                      {"id", 1},
                      {"method", "initialize"},
                      {"params",
                       {{"protocolVersion", 5},
                        {"capabilities", json::object()},
                        {"clientInfo", {{"name", "raw"}, {"version", "1"}}}}}}
                   .dump());
  auto r = c.read_reply();
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.json_body()["error"]["code"], -32602);
  EXPECT_EQ(r.header("mcp-session-id"), "");
  EXPECT_EQ(transport->stats().sessions, 0u);
  auto s = initialize(); // the server is still there
  EXPECT_FALSE(s.id.empty());
}

TEST_F(HttpTest, NotificationsAndResponsesGet202) {
  auto s = initialize();
  s.conn->send("POST", R"({"jsonrpc":"2.0","method":"notifications/roots/list_changed"})",
               {{"Mcp-Session-Id", s.id}});
  auto r = s.conn->read_reply();
  EXPECT_EQ(r.status, 202);
  EXPECT_TRUE(r.body.empty());
}

TEST_F(HttpTest, SessionRulesMissingIs400UnknownIs404DeletedIs404) {
  raw_http c(port);
  c.send("POST", rpc(1, "tools/list"));
  EXPECT_EQ(c.read_reply().status, 400);
  c.send("POST", rpc(2, "tools/list"), {{"Mcp-Session-Id", "not-a-session"}});
  EXPECT_EQ(c.read_reply().status, 404);
  auto s = initialize();
  s.conn->send("POST", rpc(3, "tools/list"), {{"Mcp-Session-Id", s.id}});
  EXPECT_EQ(s.conn->read_reply().status, 200);
  s.conn->send("DELETE", "", {{"Mcp-Session-Id", s.id}});
  EXPECT_EQ(s.conn->read_reply().status, 200);
  s.conn->send("POST", rpc(4, "tools/list"), {{"Mcp-Session-Id", s.id}});
  EXPECT_EQ(s.conn->read_reply().status, 404);
}

TEST_F(HttpTest, HeaderChecksAnswerWithTheirStatus) {
  auto s = initialize();
  auto status_of = [&](std::map<std::string, std::string> headers, const std::string& method = "POST",
                       const std::string& path = "/mcp") {
    raw_http c(port);
    headers.try_emplace("Mcp-Session-Id", s.id);
    c.send(method, method == "POST" ? rpc(1, "ping") : "", headers, path);
    return c.read_reply().status;
  };
  EXPECT_EQ(status_of({}), 200);
  EXPECT_EQ(status_of({{"Host", "evil.example.com"}}), 403);
  EXPECT_EQ(status_of({{"Origin", "http://evil.example.com"}}), 403);
  EXPECT_EQ(status_of({{"Origin", "http://localhost:" + std::to_string(port)}}), 200);
  EXPECT_EQ(status_of({{"Accept", "application/json"}}), 406);
  EXPECT_EQ(status_of({{"Content-Type", "text/plain"}}), 415);
  EXPECT_EQ(status_of({{"MCP-Protocol-Version", "2099-01-01"}}), 400);
  EXPECT_EQ(status_of({}, "PUT"), 405);
  EXPECT_EQ(status_of({}, "POST", "/elsewhere"), 404);
}

TEST_F(HttpTest, BodiesBatchesAndMalformedInputAreRefused) {
  auto s = initialize();
  s.conn->send("POST", R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])", {{"Mcp-Session-Id", s.id}});
  auto batch = s.conn->read_reply();
  EXPECT_EQ(batch.status, 400);
  EXPECT_EQ(batch.json_body()["error"]["code"], -32600);
  s.conn->send("POST", "{not json", {{"Mcp-Session-Id", s.id}});
  auto bad = s.conn->read_reply();
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(bad.json_body()["error"]["code"], -32700);

  raw_http big(port); // refused on its declared length, before the body is read
  big.send_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + std::to_string(port)
               + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream"
                 "\r\nMcp-Session-Id: "
               + s.id + "\r\nContent-Length: 5242880\r\n\r\n{");
  EXPECT_EQ(big.read_reply().status, 413);

  raw_http headers(port);
  headers.send("POST", rpc(1, "ping"), {{"Mcp-Session-Id", s.id}, {"X-Filler", std::string(20000, 'a')}});
  EXPECT_EQ(headers.read_reply().status, 431);

  raw_http garbage(port);
  garbage.send_raw("THIS IS NOT HTTP\r\n\r\n");
  EXPECT_EQ(garbage.read_reply().status, 400);

  // The session that saw all this still works.
  s.conn->send("POST", rpc(5, "tools/list"), {{"Mcp-Session-Id", s.id}});
  EXPECT_EQ(s.conn->read_reply().status, 200);
}

TEST_F(HttpTest, ConcurrentPostsOnOneSessionAllAnswer) {
  auto s = initialize();
  std::vector<std::unique_ptr<raw_http>> conns;
  for (int i = 0; i < 5; ++i) {
    conns.push_back(std::make_unique<raw_http>(port));
    conns.back()->send("POST", rpc(100 + i, "tools/list"), {{"Mcp-Session-Id", s.id}});
  }
  for (int i = 0; i < 5; ++i) {
    auto r = conns[i]->read_reply();
    ASSERT_EQ(r.status, 200);
    EXPECT_EQ(r.json_body()["id"], 100 + i);
  }
}

TEST_F(HttpTest, RelatedMessagesTurnTheAnswerIntoAnSseStream) {
  tool t = text_tool("steps");
  t.handler = [](const json&, request_context& ctx) {
    ctx.progress(1, 2);
    ctx.progress(2, 2);
    return tool_result::text("done");
  };
  srv->add_tool(t).get();
  auto s = initialize();
  s.conn->send("POST",
               json{{"jsonrpc", "2.0"},
                    {"id", 7},
                    {"method", "tools/call"},
                    {"params", {{"name", "steps"}, {"_meta", {{"progressToken", "p"}}}}}}
                 .dump(),
               {{"Mcp-Session-Id", s.id}});
  auto head = s.conn->read_reply();
  ASSERT_EQ(head.status, 200);
  EXPECT_EQ(head.header("content-type"), "text/event-stream");
  auto priming = s.conn->next_event(ms(5000), true);
  ASSERT_TRUE(priming);
  EXPECT_TRUE(priming->data.empty());
  std::vector<std::string> methods;
  for (;;) {
    auto e = s.conn->next_event();
    ASSERT_TRUE(e);
    auto m = json::parse(e->data);
    if (m.contains("id")) {
      EXPECT_EQ(m["result"]["content"][0]["text"], "done");
      break;
    }
    methods.push_back(m["method"]);
  }
  EXPECT_EQ(methods, (std::vector<std::string>{"notifications/progress", "notifications/progress"}));
  EXPECT_TRUE(s.conn->closed_by_peer()); // the stream ends after its response
}

TEST_F(HttpTest, UnrelatedNotificationsGoToTheGetStream) {
  auto s = initialize();
  auto stream = open_stream(s);
  srv->add_tool(text_tool("new_tool")).get();
  auto e = stream->next_event();
  ASSERT_TRUE(e);
  auto m = json::parse(e->data);
  EXPECT_EQ(m["method"], "notifications/tools/list_changed");
  EXPECT_EQ(m["params"]["name"], "new_tool");
  EXPECT_EQ(e->id.rfind("0-", 0), 0u) << "standalone stream events are 0-<seq>";
  raw_http second(port);
  second.send("GET", "", {{"Mcp-Session-Id", s.id}});
  EXPECT_EQ(second.read_reply().status, 409); // one standalone stream per session
}

TEST_F(HttpTest, NotificationsSentWhileNoStreamIsOpenAreKeptForTheNextGet) {
  auto s = initialize();
  srv->add_tool(text_tool("while_away")).get();
  auto stream = open_stream(s);
  auto e = stream->next_event();
  ASSERT_TRUE(e);
  EXPECT_EQ(json::parse(e->data)["params"]["name"], "while_away");
}

TEST_F(HttpTest, AResumedStreamGetsEveryMissedEventInOrderOnce) {
  auto s = initialize();
  auto stream = open_stream(s);
  srv->add_tool(text_tool("a")).get();
  auto first = stream->next_event();
  ASSERT_TRUE(first);
  stream->close(); // the network drops
  for (auto name : {"b", "c", "d"})
    srv->add_tool(text_tool(name)).get();
  srv->stats(); // every broadcast has been handed to the transport
  auto resumed = open_stream(s, first->id);
  std::vector<std::string> names;
  for (int i = 0; i < 3; ++i) {
    auto e = resumed->next_event();
    ASSERT_TRUE(e);
    names.push_back(json::parse(e->data)["params"]["name"]);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"b", "c", "d"}));
  srv->add_tool(text_tool("e")).get(); // then live, no duplicates
  auto live = resumed->next_event();
  ASSERT_TRUE(live);
  EXPECT_EQ(json::parse(live->data)["params"]["name"], "e");
}

class ShortHistory : public HttpTest {
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.stream_history_events = 2;
    return o;
  }
};

TEST_F(ShortHistory, AnIdTooOldToReplayGetsAClearAnswer) {
  auto s = initialize();
  auto stream = open_stream(s);
  srv->add_tool(text_tool("a")).get();
  auto first = stream->next_event();
  ASSERT_TRUE(first);
  stream->close();
  for (auto name : {"b", "c", "d"})
    srv->add_tool(text_tool(name)).get();
  srv->stats();
  raw_http late(port);
  late.send("GET", "", {{"Mcp-Session-Id", s.id}, {"Last-Event-ID", first->id}});
  auto r = late.read_reply();
  EXPECT_EQ(r.status, 410);
  EXPECT_NE(r.json_body()["error"]["message"].get<std::string>().find("no longer kept"), std::string::npos);
}

// Every history on the server bounded together: per stream, 1,024 events
// would be kept; the budget (a few events' worth) discards the oldest of any.
class SmallHistoryBudget : public HttpTest {
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.stream_history_budget_bytes = 2048;
    return o;
  }
};

TEST_F(SmallHistoryBudget, TheOldestEventsOfAnyStreamGoFirstAndAskingForThemGets410) {
  auto old_session = initialize();
  auto old_stream = open_stream(old_session);
  srv->add_tool(text_tool("a")).get();
  auto a = old_stream->next_event();
  ASSERT_TRUE(a);
  old_stream->close();
  auto busy = initialize();
  for (auto name : {"b", "c", "d", "e", "f", "g", "h", "i"}) // ~16 events of ~250 bytes, both sessions
    srv->add_tool(text_tool(name)).get();
  srv->stats();
  raw_http late(port);
  late.send("GET", "", {{"Mcp-Session-Id", old_session.id}, {"Last-Event-ID", a->id}});
  auto r = late.read_reply();
  EXPECT_EQ(r.status, 410);
  EXPECT_NE(r.json_body()["error"]["message"].get<std::string>().find("no longer kept"), std::string::npos);
  // The newest stay resumable.
  auto stream = open_stream(busy);
  auto from = stream->next_event(); // what the budget kept of b..i
  ASSERT_TRUE(from);
  stream->close();
  srv->add_tool(text_tool("j")).get();
  srv->stats();
  auto resumed = open_stream(busy, from->id);
  std::string last;
  for (int i = 0; i < 10 && last != "j"; ++i) {
    auto e = resumed->next_event();
    ASSERT_TRUE(e);
    last = json::parse(e->data)["params"]["name"];
  }
  EXPECT_EQ(last, "j");
}

class SlowReaders : public HttpTest {
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.max_unread_bytes = 4 * 1024 * 1024; // the default
    return o;
  }
};

std::string tool_name(int i) { return std::string("t").append(std::to_string(i)); }

TEST_F(SlowReaders, AClientThatStopsReadingLosesOnlyItsOwnConnection) {
  auto stuck = initialize();
  auto healthy = initialize();
  auto never_read = open_stream(stuck, {}, 4096);
  auto reader = open_stream(healthy);
  constexpr int mutations = 1600;
  // The healthy client reads all the time, on its own thread, as a real
  // one would; the stuck one never reads.
  std::atomic<int> received{0};
  std::atomic<int> intact{0}; // whole JSON naming the tool added, in order
  std::mutex mtx;
  std::condition_variable progressed;
  std::thread healthy_client([&] {
    while (received < mutations) {
      auto e = reader->next_event();
      if (!e)
        break;
      auto msg = json::parse(e->data, nullptr, false);
      if (!msg.is_discarded() && msg["params"].value("name", "") == tool_name(received.load()))
        ++intact;
      std::lock_guard<std::mutex> g(mtx);
      ++received;
      progressed.notify_all();
    }
    std::lock_guard<std::mutex> g(mtx);
    progressed.notify_all();
  });
  // ~26 MB to the stuck client: beyond its 4 MiB allowance plus what
  // loopback socket buffers absorb (a few MB at most), so it must overflow.
  // The healthy one is never more than 64 changes (~1 MiB) behind, however
  // slow the machine: only the reader that stopped may overflow.
  constexpr int window = 64;
  std::string padding(16 * 1024, 'x');
  for (int i = 0; i < mutations; ++i) {
    auto t = text_tool(tool_name(i));
    t.description = padding;
    srv->add_tool(t).get();
    std::unique_lock<std::mutex> g(mtx);
    if (!progressed.wait_for(g, std::chrono::seconds(10), [&] { return received >= i + 1 - window; }))
      break; // the healthy stream stalled: the assertion below says so
  }
  healthy_client.join();
  EXPECT_EQ(received.load(), mutations);
  EXPECT_EQ(intact.load(), mutations); // whole, in order
  EXPECT_GE(transport->stats().dropped_slow_connections, 1u);
  EXPECT_TRUE(never_read->closed_by_peer());
}

// Room for what a paused client has not read yet, beyond what the kernel's
// socket buffers hold (on loopback they start at about 2.5 MB).
class PausedReaders : public HttpTest {
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.max_unread_bytes = 64 * 1024 * 1024;
    return o;
  }

protected:
  // `events` tool additions whose events are about `event_bytes` each, sent
  // while the client does not read; then it reads them all.
  void expect_whole_and_in_order(int events, std::size_t event_bytes) {
    auto s = initialize();
    auto stream = open_stream(s, {}, 4096);
    std::string padding(event_bytes, 'x');
    for (int i = 0; i < events; ++i) {
      auto tool = text_tool(tool_name(i));
      tool.description = padding;
      srv->add_tool(tool).get();
    }
    for (int i = 0; i < events; ++i) {
      auto e = stream->next_event();
      ASSERT_TRUE(e.has_value()) << "event " << i << " missing";
      auto msg = json::parse(e->data, nullptr, false);
      ASSERT_FALSE(msg.is_discarded()) << "event " << i << " torn: " << e->data.substr(0, 120);
      ASSERT_EQ(e->lines, 2u) << "event " << i << " is not just its id and data: torn";
      ASSERT_EQ(msg["params"].value("name", ""), tool_name(i));
    }
    EXPECT_EQ(transport->stats().dropped_slow_connections, 0u);
  }
};

// A client that pauses reading: once the socket buffer is full, a write
// goes out in part and the rest asynchronously, while later frames queue
// behind it. When the client reads again, every event arrives whole and in
// order (within its unread-bytes allowance nothing is dropped). 8 MiB and
// more: beyond what loopback's socket buffers hold (~2.5 MB).

// Large events: each write is more than a socket buffer takes at once.
TEST_F(PausedReaders, LargeEventsArriveWholeAndInOrder) { expect_whole_and_in_order(8, 1024 * 1024); }

// Small events, written as one flat buffer each: 9 MB in all.
TEST_F(PausedReaders, SmallEventsArriveWholeAndInOrder) { expect_whole_and_in_order(3000, 3000); }

} // namespace
} // namespace cafmcp::test

namespace cafmcp::test {
namespace {

class QuickKeepAlive : public HttpTest {
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.keep_alive_interval = std::chrono::milliseconds(50);
    return o;
  }
};

TEST_F(QuickKeepAlive, IdleStreamsGetKeepAliveComments) {
  auto s = initialize();
  auto stream = open_stream(s);
  std::string seen;
  for (int i = 0; i < 100 && seen.find(": keep-alive") == std::string::npos; ++i) {
    char buf[256];
    pollfd p{stream->fd(), POLLIN, 0};
    if (::poll(&p, 1, 5000) <= 0)
      break;
    auto n = ::recv(stream->fd(), buf, sizeof buf, 0);
    if (n <= 0)
      break;
    seen.append(buf, static_cast<std::size_t>(n));
  }
  EXPECT_NE(seen.find(": keep-alive"), std::string::npos);
}

} // namespace
} // namespace cafmcp::test

namespace cafmcp::test {
namespace {

// A tool "hold" whose call stays in flight until release() (or the end of
// the test); started() says whether it is within a bounded wait.
struct held_tool {
  held_tool() = default;
  held_tool(const held_tool&) = delete;
  ~held_tool() { release(); }
  std::shared_ptr<std::promise<void>> started_ = std::make_shared<std::promise<void>>();
  std::shared_ptr<std::promise<void>> release_ = std::make_shared<std::promise<void>>();
  bool released_ = false;
  tool make() const {
    tool t = text_tool("hold");
    t.handler = [started = started_, released = release_->get_future().share()](const json&,
                                                                                request_context&) {
      started->set_value();
      released.wait();
      return tool_result::text("too late");
    };
    return t;
  }
  [[nodiscard]] bool started() const {
    return started_->get_future().wait_for(std::chrono::seconds(10)) == std::future_status::ready;
  }
  void release() {
    if (!std::exchange(released_, true))
      release_->set_value();
  }
};

TEST_F(HttpTest, ACancelledRequestsPostEndsWithoutAResponse) {
  held_tool hold;
  srv->add_tool(hold.make()).get();
  auto s = initialize();
  raw_http call(port);
  call.send("POST", rpc(42, "tools/call", {{"name", "hold"}}), {{"Mcp-Session-Id", s.id}});
  ASSERT_TRUE(hold.started()); // the call is in flight before it is cancelled
  s.conn->send("POST", R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":42}})",
               {{"Mcp-Session-Id", s.id}});
  EXPECT_EQ(s.conn->read_reply().status, 202);
  auto r = call.read_reply(); // the held POST is answered, with no JSON-RPC response
  EXPECT_EQ(r.status, 202);
  EXPECT_TRUE(r.body.empty());
  hold.release();
}

// A session deleted while one of its calls is in flight: that POST is owed
// an answer. It used to be closed with no HTTP response at all.
TEST_F(HttpTest, ARequestInFlightWhenItsSessionIsDeletedIsAnswered) {
  held_tool hold;
  srv->add_tool(hold.make()).get();
  auto s = initialize();
  raw_http call(port);
  call.send("POST", rpc(42, "tools/call", {{"name", "hold"}}), {{"Mcp-Session-Id", s.id}});
  ASSERT_TRUE(hold.started()); // in flight before the DELETE
  s.conn->send("DELETE", "", {{"Mcp-Session-Id", s.id}});
  EXPECT_EQ(s.conn->read_reply().status, 200);
  auto r = call.read_reply();
  EXPECT_EQ(r.status, 404);
  auto body = json::parse(r.body);
  EXPECT_EQ(body["id"], 42);
  EXPECT_EQ(body["error"]["code"], -32000);
  EXPECT_NE(body["error"]["message"].get<std::string>().find("Session ended"), std::string::npos);
  hold.release();
}

// Where a call's handler stands, for a test that acts at a chosen stage.
// Shared with the handlers it makes: a handler of a round whose session was
// deleted before it started may still be waiting when the test body ends
// (the TSan lane saw one wait on a condition variable gone with the test's
// stack).
//
// Every round whose handler started is kept, not only the latest: the call
// of a session deleted in flight may still reach its handler after its POST
// was answered, and so start after the next round's handler. A single
// "started" round could be overwritten by such a late start before the test
// saw it (a fresh-clone run once waited 10 s for round 85 in vain).
struct call_stages : std::enable_shared_from_this<call_stages> {
  std::mutex m;
  std::condition_variable cv;
  std::set<int> started; // the rounds whose handlers ran
  int released = -1;     // rounds up to this may finish
  tool make() {
    tool t = text_tool("staged");
    t.handler = [self = shared_from_this()](const json& args, request_context& ctx) {
      int round = args.value("round", 0);
      ctx.log(log_level::info, "started"); // the answer becomes an SSE stream
      std::unique_lock<std::mutex> lock(self->m);
      self->started.insert(round);
      self->cv.notify_all();
      auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (self->released < round && !ctx.cancelled() && std::chrono::steady_clock::now() < give_up)
        self->cv.wait_for(lock, std::chrono::milliseconds(5));
      return tool_result::text("ok");
    };
    return t;
  }
  bool wait_started(int round) {
    std::unique_lock<std::mutex> lock(m);
    return cv.wait_for(lock, std::chrono::seconds(10), [&] { return started.count(round) != 0; });
  }
  void release(int round) {
    std::lock_guard<std::mutex> lock(m);
    released = round;
    cv.notify_all();
  }
};

// A session deleted while one of its calls is in flight, at every stage of
// the call: before its POST is read, while its handler runs, after its
// answer turned into an SSE stream, and racing its answer. Each POST gets an
// HTTP response all the same: its answer; or 404 with the JSON-RPC error
// -32000 and the request's id (plain JSON); or, once its answer is an SSE
// stream, that error as the stream's last event. Each DELETE gets 200 (or 404: the session was
// gone already). An earlier build closed 51 of 200 such POSTs with no
// response at all.
TEST_F(HttpTest, EveryPostRacingADeleteOfItsSessionIsAnswered) {
  auto stages = std::make_shared<call_stages>();
  srv->add_tool(stages->make()).get();
  std::map<std::string, int> outcomes;
  for (int round = 0; round < 100; ++round) {
    auto s = initialize();
    raw_http call(port), del(port);
    int stage = round % 4;
    call.send("POST", rpc(7, "tools/call", {{"name", "staged"}, {"arguments", {{"round", round}}}}),
              {{"Mcp-Session-Id", s.id}});
    std::optional<http_reply> head;
    if (stage != 0)
      ASSERT_TRUE(stages->wait_started(round)) << "round " << round;
    if (stage == 2) { // the log went out: the answer is an SSE stream now
      head = call.read_reply();
      ASSERT_EQ(head->header("content-type"), "text/event-stream");
      ASSERT_TRUE(call.next_event());
    }
    if (stage == 3)
      stages->release(round); // the answer races the DELETE
    del.send("DELETE", "", {{"Mcp-Session-Id", s.id}});
    auto deleted = del.read_reply().status;
    EXPECT_TRUE(deleted == 200 || deleted == 404) << deleted;
    stages->release(round); // stages 1 and 2: only once the session is gone
    if (!head)
      ASSERT_NO_THROW(head = call.read_reply()) << "round " << round << ": the POST got no HTTP response";
    auto& r = *head;
    if (r.status == 404) {
      EXPECT_EQ(r.json_body()["id"], 7);
      EXPECT_EQ(r.json_body()["error"]["code"], -32000) << r.body;
      ++outcomes["404 at stage " + std::to_string(stage)];
    } else {
      ASSERT_EQ(r.status, 200) << "round " << round << ": " << r.body;
      ASSERT_EQ(r.header("content-type"), "text/event-stream"); // the handler logs first
      json last;
      while (auto e = call.next_event())
        if (auto m = json::parse(e->data); m.contains("id")) {
          last = m;
          break;
        }
      ASSERT_EQ(last["id"], 7) << "round " << round << ": the stream ended without an answer";
      if (last.contains("error")) {
        EXPECT_EQ(last["error"]["code"], -32000);
        ++outcomes["error event at stage " + std::to_string(stage)];
      } else {
        ++outcomes["result at stage " + std::to_string(stage)];
      }
    }
  }
  // Stage 2 always ends on the stream; stage 1 too, or with 404 when the
  // DELETE came before the log message; none of them with a result.
  EXPECT_EQ(outcomes["error event at stage 2"], 25);
  EXPECT_EQ(outcomes["error event at stage 1"] + outcomes["404 at stage 1"], 25);
  for (auto& [what, n] : outcomes)
    std::printf("%s: %d\n", what.c_str(), n);
}

// stop() with a session, its GET stream and a call in flight, and no grace
// for the call: it returns, the call is answered 503 with its error, every
// connection ends, new ones are refused, the sessions end; the handler that
// finishes afterwards finds nobody to answer and breaks nothing; a second
// stop() is harmless. (HttpShutdown covers the grace itself.)
class HttpStop : public HttpTest {
protected:
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.shutdown_grace = std::chrono::milliseconds(0);
    return o;
  }
};

TEST_F(HttpStop, EndsLiveSessionsStreamsAndRequests) {
  held_tool hold;
  srv->add_tool(hold.make()).get();
  auto s = initialize();
  auto stream = open_stream(s);
  raw_http call(port);
  call.send("POST", rpc(42, "tools/call", {{"name", "hold"}}), {{"Mcp-Session-Id", s.id}});
  ASSERT_TRUE(hold.started());
  ASSERT_EQ(srv->stats().sessions, 1u);
  auto stopping = std::async(std::launch::async, [this] { transport->stop(); });
  ASSERT_EQ(stopping.wait_for(std::chrono::seconds(10)), std::future_status::ready) << "stop() hangs";
  EXPECT_TRUE(stream->closed_by_peer());
  auto refused = call.read_reply();
  EXPECT_EQ(refused.status, 503);
  EXPECT_EQ(json::parse(refused.body)["error"]["code"], -32000) << refused.body;
  EXPECT_TRUE(call.closed_by_peer());
  EXPECT_TRUE(s.conn->closed_by_peer());
  EXPECT_THROW(raw_http{port}, std::runtime_error); // nobody listens any more
  auto t = transport->stats();
  EXPECT_EQ(t.open_connections, 0u);
  EXPECT_EQ(t.open_streams, 0u);
  EXPECT_EQ(t.sessions, 0u);
  // The server's session actors stop on their own after the transport told
  // them: poll (bounded) until the server counts none.
  auto until = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (srv->stats().sessions != 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(srv->stats().sessions, 0u);
  hold.release();
  transport->stop();
  srv->add_tool(text_tool("after")).get(); // the server itself still serves its API
}

// allowed_origins: a listed Origin is served like the server's own (a
// browser app on another host), through a whole session; only the exact
// text is listed: another scheme, port or a longer name is refused.
class AllowedOrigins : public HttpTest {
protected:
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.allowed_origins = {"https://app.example"};
    return o;
  }
};

TEST_F(AllowedOrigins, AListedOriginIsServedAndNothingLikeIt) {
  const std::map<std::string, std::string> app = {{"Origin", "https://app.example"}};
  raw_http c(port);
  c.send("POST", initialize_body(), app);
  auto init = c.read_reply();
  ASSERT_EQ(init.status, 200) << init.body;
  auto id = init.header("mcp-session-id");
  ASSERT_FALSE(id.empty());
  auto with = [&](std::string origin) {
    return std::map<std::string, std::string>{{"Origin", std::move(origin)}, {"Mcp-Session-Id", id}};
  };
  c.send("POST", initialized_body, with("https://app.example"));
  EXPECT_EQ(c.read_reply().status, 202);
  c.send("POST", rpc(2, "tools/list"), with("https://app.example"));
  auto list = c.read_reply();
  ASSERT_EQ(list.status, 200);
  EXPECT_EQ(list.json_body()["result"]["tools"][0]["name"], "hello");
  for (auto other : {"http://app.example", "https://app.example:8443", "https://app.example.evil.test",
                     "https://evil.test", "null"}) {
    raw_http refused(port);
    refused.send("POST", rpc(3, "ping"), with(other));
    EXPECT_EQ(refused.read_reply().status, 403) << other;
  }
  raw_http get(port);
  get.send("GET", "", with("https://app.example"));
  EXPECT_EQ(get.read_reply().status, 200);
  c.send("DELETE", "", with("https://app.example"));
  EXPECT_EQ(c.read_reply().status, 200);
}

} // namespace
} // namespace cafmcp::test

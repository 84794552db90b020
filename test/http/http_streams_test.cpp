// Stream bookkeeping against a real server: a fresh GET after the history
// overflowed, request ids already in flight, and how long finished request
// streams stay resumable.
#include "http_fixture.hpp"

namespace cafmcp::test {
namespace {

using ms = std::chrono::milliseconds;

std::string call(int id, const std::string& tool, bool with_progress = false) {
  json params = {{"name", tool}};
  if (with_progress)
    params["_meta"] = {{"progressToken", "p" + std::to_string(id)}};
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", params}}.dump();
}

class TinyHistory : public HttpTest {
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.stream_history_events = 2;
    o.finished_streams_per_session = 1;
    return o;
  }
};

TEST_F(TinyHistory, AFreshGetOpensEvenAfterItsHistoryOverflowedAndGetsWhatIsKept) {
  auto s = initialize();
  for (auto name : {"a", "b", "c", "d"}) // no GET stream open: 2 of 4 are kept
    srv->add_tool(text_tool(name)).get();
  srv->stats();
  auto stream = open_stream(s);
  std::vector<std::string> names;
  for (int i = 0; i < 2; ++i) {
    auto e = stream->next_event();
    ASSERT_TRUE(e);
    names.push_back(json::parse(e->data)["params"]["name"]);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"c", "d"}));
  srv->add_tool(text_tool("live")).get();
  auto live = stream->next_event();
  ASSERT_TRUE(live);
  EXPECT_EQ(json::parse(live->data)["params"]["name"], "live");
}

// Reads one request's SSE answer; returns the event ids, priming first.
std::vector<std::string> read_stream(raw_http& c) {
  std::vector<std::string> ids;
  auto head = c.read_reply();
  EXPECT_EQ(head.header("content-type"), "text/event-stream");
  for (int i = 0; i < 10; ++i) {
    auto e = c.next_event(ms(5000), true);
    if (!e)
      break;
    ids.push_back(e->id);
    if (!e->data.empty() && json::parse(e->data).contains("result"))
      break;
  }
  return ids;
}

TEST_F(TinyHistory, OnlyTheNewestFinishedRequestStreamsStayResumable) {
  tool t = text_tool("steps");
  t.handler = [](const json&, request_context& ctx) {
    ctx.progress(1, 2);
    return tool_result::text("done");
  };
  srv->add_tool(t).get();
  auto s = initialize();
  s.conn->send("POST", call(1, "steps", true), {{"Mcp-Session-Id", s.id}});
  auto first = read_stream(*s.conn);
  ASSERT_EQ(first.size(), 3u); // priming, progress, result
  raw_http second_conn(port);
  second_conn.send("POST", call(2, "steps", true), {{"Mcp-Session-Id", s.id}});
  auto second = read_stream(second_conn);
  ASSERT_EQ(second.size(), 3u);
  EXPECT_NE(first[0].substr(0, first[0].find('-')), second[0].substr(0, second[0].find('-')))
    << "each request stream has an id of its own";

  raw_http old(port); // one finished stream is kept per session: the first is gone
  old.send("GET", "", {{"Mcp-Session-Id", s.id}, {"Last-Event-ID", first[0]}});
  auto gone = old.read_reply();
  EXPECT_EQ(gone.status, 410);
  EXPECT_EQ(gone.json_body()["error"]["code"], -32000);

  raw_http again(port); // the newest replays from its priming event, then ends
  again.send("GET", "", {{"Mcp-Session-Id", s.id}, {"Last-Event-ID", second[0]}});
  auto head = again.read_reply();
  ASSERT_EQ(head.status, 200);
  auto progress = again.next_event();
  ASSERT_TRUE(progress);
  EXPECT_EQ(progress->id, second[1]);
  EXPECT_EQ(json::parse(progress->data)["method"], "notifications/progress");
  auto result = again.next_event();
  ASSERT_TRUE(result);
  EXPECT_EQ(result->id, second[2]);
  EXPECT_EQ(json::parse(result->data)["id"], 2);
  EXPECT_TRUE(again.closed_by_peer());
}

// SSE polling (SEP-1699): a handler releases its request's stream; the
// client resumes it with GET + Last-Event-ID and gets the rest, once.
class ReleasedStream : public HttpTest {
protected:
  void SetUp() override {
    HttpTest::SetUp();
    tool t = text_tool("poll");
    t.handler = [gate = gate_](const json&, request_context& ctx) {
      ctx.progress(1, 2);
      ctx.release_stream();
      if (gate.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
        return tool_result::error("the test never opened the gate");
      ctx.progress(2, 2);
      return tool_result::text("after reconnection");
    };
    srv->add_tool(t).get();
  }
  void TearDown() override {
    open_gate();
    HttpTest::TearDown();
  }
  void open_gate() {
    if (!opened_) {
      opened_ = true;
      gate_promise_.set_value();
    }
  }
  /// Starts the call and reads its stream up to the server's close; returns
  /// the id of the last event received.
  std::string call_until_released(open_session& s) {
    s.conn->send("POST", call(9, "poll", true), {{"Mcp-Session-Id", s.id}});
    auto head = s.conn->read_reply();
    EXPECT_EQ(head.status, 200);
    EXPECT_EQ(head.header("content-type"), "text/event-stream");
    auto priming = s.conn->next_event(ms(5000), true);
    EXPECT_TRUE(priming && priming->data.empty() && !priming->retry.empty());
    auto progress = s.conn->next_event(ms(5000), true);
    EXPECT_TRUE(progress && json::parse(progress->data)["method"] == "notifications/progress");
    auto retry = s.conn->next_event(ms(5000), true);
    EXPECT_TRUE(retry && retry->data.empty() && !retry->retry.empty())
      << "retry: comes right before the server closes the stream";
    EXPECT_TRUE(s.conn->closed_by_peer());
    return progress ? progress->id : std::string();
  }
  std::vector<json> rest_of(raw_http& c) {
    std::vector<json> out;
    for (int i = 0; i < 5; ++i) {
      auto e = c.next_event();
      if (!e)
        break;
      out.push_back(json::parse(e->data));
      if (out.back().contains("result"))
        break;
    }
    return out;
  }

  std::promise<void> gate_promise_;
  std::shared_future<void> gate_ = gate_promise_.get_future().share();
  bool opened_ = false;
};

TEST_F(ReleasedStream, TheResultArrivesLiveOnTheResumedStream) {
  auto s = initialize();
  auto last = call_until_released(s);
  raw_http again(port);
  again.send("GET", "", {{"Mcp-Session-Id", s.id}, {"Last-Event-ID", last}});
  ASSERT_EQ(again.read_reply().status, 200);
  open_gate();
  auto rest = rest_of(again);
  ASSERT_EQ(rest.size(), 2u) << "the second progress, then the result; nothing replayed twice";
  EXPECT_EQ(rest[0]["params"]["progress"], 2);
  EXPECT_EQ(rest[1]["id"], 9);
  EXPECT_EQ(rest[1]["result"]["content"][0]["text"], "after reconnection");
  EXPECT_TRUE(again.closed_by_peer());
}

// Whether the result is already in the stream's history when the client
// comes back (replayed from a finished stream, as TinyHistory checks) or
// still to come (live), the client sees the same events once.
TEST_F(ReleasedStream, AClientThatReconnectsLateStillGetsTheRestOnce) {
  auto s = initialize();
  auto last = call_until_released(s);
  open_gate();
  raw_http again(port);
  again.send("GET", "", {{"Mcp-Session-Id", s.id}, {"Last-Event-ID", last}});
  ASSERT_EQ(again.read_reply().status, 200);
  auto rest = rest_of(again);
  ASSERT_EQ(rest.size(), 2u);
  EXPECT_EQ(rest[1]["result"]["content"][0]["text"], "after reconnection");
  EXPECT_TRUE(again.closed_by_peer());
}

TEST_F(HttpTest, ARequestIdAlreadyInFlightIsRefusedAndTheFirstStillGetsItsAnswer) {
  auto gate = std::make_shared<std::promise<void>>();
  auto opened = gate->get_future().share();
  auto started = std::make_shared<std::promise<void>>();
  tool t = text_tool("hold");
  t.handler = [opened, started](const json&, request_context&) {
    started->set_value();
    if (opened.wait_for(std::chrono::seconds(10)) != std::future_status::ready)
      return tool_result::error("the test never opened the gate");
    return tool_result::text("released");
  };
  srv->add_tool(t).get();
  auto s = initialize();
  s.conn->send("POST", call(5, "hold"), {{"Mcp-Session-Id", s.id}});
  ASSERT_EQ(started->get_future().wait_for(std::chrono::seconds(10)), std::future_status::ready);
  raw_http twin(port);
  twin.send("POST", rpc(5, "tools/list"), {{"Mcp-Session-Id", s.id}});
  auto refused = twin.read_reply();
  EXPECT_EQ(refused.status, 400);
  EXPECT_EQ(refused.json_body()["id"], 5);
  EXPECT_EQ(refused.json_body()["error"]["code"], -32600);
  gate->set_value();
  auto answer = s.conn->read_reply();
  ASSERT_EQ(answer.status, 200);
  EXPECT_EQ(answer.json_body()["result"]["content"][0]["text"], "released");
  // Once answered, the id is free again.
  s.conn->send("POST", rpc(5, "tools/list"), {{"Mcp-Session-Id", s.id}});
  EXPECT_EQ(s.conn->read_reply().status, 200);
}

} // namespace
} // namespace cafmcp::test

// streamable_http::stop() with work in flight, over real sockets: a call
// whose answer is already an SSE stream still gets its result within the
// grace, or its JSON-RPC error after it (never a bare close); new requests
// meanwhile get 503; a 2026-07-28 listen stream ends with its completion
// result.
#include <chrono>
#include <future>
#include <thread>

#include "http_fixture.hpp"

namespace cafmcp::test {
namespace {

using namespace std::chrono_literals;

// A tool that logs (so its answer over HTTP becomes an SSE stream), then
// waits for the test to let it finish, or for its session to end.
class logging_gate {
public:
  tool make() const {
    tool t = text_tool("gated");
    t.handler = [started = started_, gate = release_->get_future().share()](const json&,
                                                                            request_context& ctx) {
      ctx.log(log_level::info, "gated call started");
      started->set_value();
      while (!ctx.cancelled() && gate.wait_for(5ms) != std::future_status::ready) {
      }
      return tool_result::text(ctx.cancelled() ? "cancelled" : "finished during shutdown");
    };
    return t;
  }
  bool started() const { return started_->get_future().wait_for(10s) == std::future_status::ready; }
  void release() const { release_->set_value(); }

private:
  std::shared_ptr<std::promise<void>> started_ = std::make_shared<std::promise<void>>();
  std::shared_ptr<std::promise<void>> release_ = std::make_shared<std::promise<void>>();
};

class HttpShutdown : public HttpTest {
protected:
  // Far longer than any test runs: what ends the waits here is the work in
  // flight ending, never the deadline.
  virtual std::chrono::milliseconds grace() const { return 10min; }
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.shutdown_grace = grace();
    return o;
  }
  void TearDown() override {
    if (stopping.valid())
      EXPECT_EQ(stopping.wait_for(60s), std::future_status::ready) << "stop() did not return";
    HttpTest::TearDown();
  }
  void stop_in_background() {
    stopping = std::async(std::launch::async, [this] { transport->stop(); });
  }
  // The shutdown has begun once a new request on `s` is refused (bounded).
  // Asked on the session's open connection: new ones are no longer accepted.
  bool refuses_new_requests(open_session& s) {
    for (int i = 0; i < 2000; ++i) {
      s.conn->send("POST", rpc(500 + i, "ping"), {{"Mcp-Session-Id", s.id}});
      auto r = s.conn->read_reply();
      if (r.status == 503) {
        EXPECT_EQ(r.json_body()["id"], 500 + i);
        EXPECT_EQ(r.header("retry-after"), "1");
        return true;
      }
    }
    return false;
  }
  // A POST whose answer turned into an SSE stream: reads past the log
  // notification to the message carrying the id.
  json final_message(raw_http& call) {
    for (int i = 0; i < 10; ++i) {
      auto e = call.next_event();
      if (!e)
        break;
      auto m = json::parse(e->data);
      if (m.contains("id"))
        return m;
    }
    return nullptr;
  }
  std::future<void> stopping;
};

TEST_F(HttpShutdown, ACallInFlightStillGetsItsResultOnItsStream) {
  logging_gate gate;
  srv->add_tool(gate.make()).get();
  auto s = initialize();
  raw_http call(port);
  call.send("POST", rpc(42, "tools/call", {{"name", "gated"}}), {{"Mcp-Session-Id", s.id}});
  ASSERT_TRUE(gate.started());
  auto head = call.read_reply();
  ASSERT_EQ(head.header("content-type"), "text/event-stream");
  stop_in_background();
  ASSERT_TRUE(refuses_new_requests(s)); // shutting down, the call still running
  gate.release();
  auto answer = final_message(call);
  EXPECT_EQ(answer["id"], 42);
  EXPECT_EQ(answer["result"]["content"][0]["text"], "finished during shutdown");
  EXPECT_TRUE(call.closed_by_peer());
}

class HttpShutdownNoGrace : public HttpShutdown {
protected:
  std::chrono::milliseconds grace() const override { return 0ms; }
};

TEST_F(HttpShutdownNoGrace, ACallInFlightGetsItsErrorNotABareClose) {
  logging_gate gate;
  srv->add_tool(gate.make()).get();
  auto s = initialize();
  raw_http call(port);
  call.send("POST", rpc(42, "tools/call", {{"name", "gated"}}), {{"Mcp-Session-Id", s.id}});
  ASSERT_TRUE(gate.started());
  ASSERT_EQ(call.read_reply().header("content-type"), "text/event-stream");
  // A call whose answer is still plain JSON gets a 503 with the error.
  std::promise<void> plain_started;
  tool plain = text_tool("plain");
  plain.handler = [&plain_started](const json&, request_context& ctx) {
    plain_started.set_value();
    while (!ctx.cancelled()) {
      std::this_thread::sleep_for(1ms);
    }
    return tool_result::text("cancelled");
  };
  srv->add_tool(plain).get();
  raw_http plain_call(port);
  plain_call.send("POST", rpc(43, "tools/call", {{"name", "plain"}}), {{"Mcp-Session-Id", s.id}});
  ASSERT_EQ(plain_started.get_future().wait_for(10s), std::future_status::ready);

  stop_in_background();
  auto answer = final_message(call);
  EXPECT_EQ(answer["id"], 42);
  EXPECT_EQ(answer["error"]["code"], -32000);
  EXPECT_NE(answer["error"]["message"].get<std::string>().find("shutting down"), std::string::npos);
  EXPECT_TRUE(call.closed_by_peer());
  auto r = plain_call.read_reply();
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.json_body()["id"], 43);
  EXPECT_EQ(r.json_body()["error"]["code"], -32000);
}

TEST_F(HttpShutdown, AListenStreamEndsWithItsCompletionResult) {
  raw_http listener(port);
  listener.send("POST",
                stateless_body(7, "subscriptions/listen", {{"notifications", {{"toolsListChanged", true}}}}),
                stateless_headers("subscriptions/listen"));
  ASSERT_EQ(listener.read_reply().status, 200);
  auto ack = listener.next_event();
  ASSERT_TRUE(ack);
  ASSERT_EQ(json::parse(ack->data)["method"], "notifications/subscriptions/acknowledged");
  stop_in_background();
  auto end = listener.next_event();
  ASSERT_TRUE(end);
  auto m = json::parse(end->data);
  EXPECT_EQ(m["id"], 7);
  EXPECT_EQ(m["result"]["resultType"], "complete");
  EXPECT_EQ(m["result"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7);
  EXPECT_TRUE(listener.closed_by_peer());
}

// Sessions with nothing in flight end at once: stop() returns without
// waiting out the ten-minute grace.
TEST_F(HttpShutdown, IdleSessionsAndStreamsEndWithoutWaitingForTheGrace) {
  auto a = initialize();
  auto b = initialize();
  auto stream = open_stream(b);
  stop_in_background();
  EXPECT_EQ(stopping.wait_for(60s), std::future_status::ready);
  EXPECT_TRUE(stream->closed_by_peer());
}

} // namespace
} // namespace cafmcp::test

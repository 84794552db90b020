// 2026-07-28 over real sockets, beside a 2025-11-25 session on the same
// endpoint: stateless POSTs, statuses, a listen stream whose end (the
// client leaving) removes its listener, and the in-flight limit.
#include "http_fixture.hpp"

namespace cafmcp::test {
namespace {

class HttpStateless : public HttpTest {
protected:
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.max_stateless_requests = 2;
    return o;
  }
  // Polls the notifier's stats through a legacy session (bounded, no sleep).
  bool listeners_become(open_session& s, std::size_t n) {
    for (int i = 0; i < 500; ++i) {
      if (srv->stats().listeners == n)
        return true;
      s.conn->send("POST", rpc(1000 + i, "ping"), {{"Mcp-Session-Id", s.id}});
      s.conn->read_reply();
    }
    return srv->stats().listeners == n;
  }
};

TEST_F(HttpStateless, ServedWithoutASessionBesideOne) {
  auto legacy = initialize();
  raw_http c(port);
  c.send("POST", stateless_body(1, "tools/call", {{"name", "hello"}}),
         stateless_headers("tools/call", "hello"));
  auto r = c.read_reply();
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("mcp-session-id"), ""); // no session is made
  EXPECT_EQ(r.json_body()["result"]["resultType"], "complete");
  c.send("POST", stateless_body(2, "ping"), stateless_headers("ping"));
  auto removed = c.read_reply();
  EXPECT_EQ(removed.status, 404);
  EXPECT_EQ(removed.json_body()["error"]["code"], -32601);
  c.send("POST", stateless_body(3, "tools/call", {{"name", "hello"}}),
         stateless_headers("tools/call", "other"));
  auto mismatch = c.read_reply();
  EXPECT_EQ(mismatch.status, 400);
  EXPECT_EQ(mismatch.json_body()["error"]["code"], -32020);
  EXPECT_EQ(mismatch.json_body()["id"], 3);
  // The legacy session still works, and it is still the only session.
  legacy.conn->send("POST", rpc(5, "tools/list"), {{"Mcp-Session-Id", legacy.id}});
  EXPECT_EQ(legacy.conn->read_reply().status, 200);
  EXPECT_EQ(srv->stats().sessions, 1u);
}

// 2026-07-28 has no sessions: a request naming it is served statelessly
// even when it carries an Mcp-Session-Id (here a live legacy session's),
// which it ignores: no session id comes back and that session is untouched.
TEST_F(HttpStateless, AStatelessRequestIgnoresAnMcpSessionId) {
  auto legacy = initialize();
  raw_http c(port);
  auto headers = stateless_headers("tools/call", "hello");
  headers["Mcp-Session-Id"] = legacy.id;
  c.send("POST", stateless_body(1, "tools/call", {{"name", "hello"}}), headers);
  auto r = c.read_reply();
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(r.header("mcp-session-id"), "");
  EXPECT_EQ(r.json_body()["result"]["resultType"], "complete");
  legacy.conn->send("POST", rpc(2, "tools/list"), {{"Mcp-Session-Id", legacy.id}});
  EXPECT_EQ(legacy.conn->read_reply().status, 200);
  EXPECT_EQ(srv->stats().sessions, 1u);
}

TEST_F(HttpStateless, AListenStreamEndsWithItsConnectionAndTheLimitHolds) {
  auto legacy = initialize();
  auto listener = std::make_unique<raw_http>(port);
  listener->send("POST",
                 stateless_body(7, "subscriptions/listen", {{"notifications", {{"toolsListChanged", true}}}}),
                 stateless_headers("subscriptions/listen"));
  auto head = listener->read_reply();
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("content-type"), "text/event-stream");
  auto ack = listener->next_event();
  ASSERT_TRUE(ack);
  EXPECT_EQ(json::parse(ack->data)["method"], "notifications/subscriptions/acknowledged");
  ASSERT_TRUE(srv->add_tool(text_tool("added")).get());
  auto changed = listener->next_event();
  ASSERT_TRUE(changed);
  auto n = json::parse(changed->data);
  EXPECT_EQ(n["method"], "notifications/tools/list_changed");
  EXPECT_EQ(n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 7);

  // One listen stream open, one more request allowed (limit 2): a second
  // stream takes the last slot, a third request is refused.
  raw_http second(port);
  second.send("POST", stateless_body(8, "subscriptions/listen"), stateless_headers("subscriptions/listen"));
  EXPECT_EQ(second.read_reply().status, 200);
  ASSERT_TRUE(second.next_event());
  raw_http third(port);
  third.send("POST", stateless_body(9, "server/discover"), stateless_headers("server/discover"));
  EXPECT_EQ(third.read_reply().status, 503);

  listener.reset(); // the client leaves: its listener goes at once
  EXPECT_TRUE(listeners_become(legacy, 1));
  raw_http fourth(port);
  fourth.send("POST", stateless_body(10, "server/discover"), stateless_headers("server/discover"));
  EXPECT_EQ(fourth.read_reply().status, 200);
}

} // namespace
} // namespace cafmcp::test

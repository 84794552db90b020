// The Streamable HTTP client transport against the real everything-server
// process on a loopback port.
#include <gtest/gtest.h>

#include "cafmcp/http_client_transport.hpp"

#include "client_transport/http_stream_control.hpp"
#include "raw_http.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

class HttpClientTransport : public ::testing::Test {
protected:
  void SetUp() override {
    server = std::make_unique<http_server_process>(
      std::vector<std::string>{bin("everything-server"), "--http", "--port", "0"});
  }
  std::unique_ptr<http_client_transport> connect(recorder& r) {
    http_client_options o;
    o.url = server->url();
    auto t = make_http_client_transport(o);
    t->start(r.handlers());
    return t;
  }
  static bool method_is(const json& m, const std::string& method) { return m.value("method", "") == method; }

  std::unique_ptr<http_server_process> server;
};

TEST_F(HttpClientTransport, RoundTripsSessionAndGetStream) {
  recorder r;
  auto t = connect(r);
  handshake(*t, r);
  EXPECT_FALSE(t->session_id().empty());
  ASSERT_TRUE(stream_control(*t).wait_get_stream(10s));
  for (int i = 10; i < 20; ++i)
    t->send(request(i, "ping"));
  for (int i = 10; i < 20; ++i)
    ASSERT_TRUE(r.response(i)) << i;
  // A mutation's list_changed is unrelated to any request: the GET stream carries it.
  t->send(call_tool(30, "add_tool", {{"name", "http_added"}}));
  auto res = r.response(30);
  ASSERT_TRUE(res);
  EXPECT_FALSE((*res)["result"].value("isError", false));
  EXPECT_TRUE(r.wait_for([](const json& m) { return method_is(m, "notifications/tools/list_changed"); }));
  t->close();
  ASSERT_TRUE(r.wait_closed());
  EXPECT_EQ(r.closed_count(), 1);
}

TEST_F(HttpClientTransport, SseResponseCarriesRelatedNotificationsFirst) {
  recorder r;
  auto t = connect(r);
  handshake(*t, r);
  t->send(call_tool(5, "test_tool_with_progress", json::object(), {{"progressToken", "p-1"}}));
  auto res = r.response(5, 20s);
  ASSERT_TRUE(res);
  ASSERT_TRUE(res->contains("result"));
  // The progress notifications came on the POST's SSE stream, before the answer.
  EXPECT_EQ(r.count([](const json& m) {
    return method_is(m, "notifications/progress") && m["params"]["progressToken"] == "p-1";
  }),
            3u); // 0, 50 and 100
}

TEST_F(HttpClientTransport, PostStreamClosedMidCallIsResumedWithLastEventId) {
  recorder r;
  auto t = connect(r);
  handshake(*t, r);
  // test_reconnection: the server ends the POST's connection after an event
  // id and a retry:, and answers on the resumed stream.
  t->send(call_tool(6, "test_reconnection", json::object()));
  auto res = r.response(6, 20s);
  ASSERT_TRUE(res);
  EXPECT_TRUE(res->contains("result")) << res->dump();
  EXPECT_EQ(stream_control(*t).resumptions(), 1);
  EXPECT_EQ(r.count([](const json& m) { return !m.contains("method") && m.value("id", json()) == 6; }), 1u);
}

TEST_F(HttpClientTransport, DroppedGetStreamResumesWithoutLossOrDuplicates) {
  recorder r;
  auto t = connect(r);
  handshake(*t, r);
  ASSERT_TRUE(stream_control(*t).wait_get_stream(10s));
  t->send(call_tool(7, "add_tool", {{"name", "before_drop"}}));
  ASSERT_TRUE(r.response(7));
  ASSERT_TRUE(r.wait_for(
    [](const json& m) { return m.dump().find("before_drop") != std::string::npos && m.contains("method"); }));
  stream_control(*t).drop_get_stream();
  // These changes happen while the stream is down (the server asked for a
  // retry delay of a second): they must come on the resumed stream.
  const int n = 5;
  for (int i = 0; i < n; ++i) {
    t->send(call_tool(100 + i, "add_tool", {{"name", "missed_" + std::to_string(i)}}));
    ASSERT_TRUE(r.response(100 + i));
  }
  auto names_seen = [&](const std::string& name) {
    return r.count([&](const json& m) {
      return method_is(m, "notifications/tools/list_changed")
             && m.dump().find("\"" + name + "\"") != std::string::npos;
    });
  };
  ASSERT_TRUE(
    r.wait_count([](const json& m) { return method_is(m, "notifications/tools/list_changed"); }, 1 + n, 15s));
  // A barrier: one more change after the resumption, then every earlier
  // one has had its chance to arrive twice.
  t->send(call_tool(200, "add_tool", {{"name", "after_resume"}}));
  ASSERT_TRUE(r.response(200));
  ASSERT_TRUE(r.wait_for([](const json& m) {
    return m.contains("method") && m.dump().find("after_resume") != std::string::npos;
  }));
  EXPECT_EQ(stream_control(*t).resumptions(), 1);
  EXPECT_EQ(names_seen("before_drop"), 1u);
  for (int i = 0; i < n; ++i)
    EXPECT_EQ(names_seen("missed_" + std::to_string(i)), 1u) << i;
}

// A response larger than max_message_bytes is never buffered whole: its
// request fails saying so, and the transport serves on (the initialize
// answer, ~430 bytes, fits; tools/list, ~8 KB, does not).
TEST_F(HttpClientTransport, AResponseOverTheLimitFailsItsRequestSayingSo) {
  recorder r;
  http_client_options o;
  o.url = server->url();
  o.max_message_bytes = 2048;
  auto t = make_http_client_transport(o);
  t->start(r.handlers());
  handshake(*t, r);
  t->send(request(7, "tools/list"));
  auto res = r.response(7);
  ASSERT_TRUE(res);
  ASSERT_TRUE(res->contains("error")) << res->dump();
  EXPECT_NE((*res)["error"]["message"].get<std::string>().find("max_message_bytes (2048 bytes)"), std::string::npos)
    << res->dump();
  t->send(request(8, "ping"));
  auto pong = r.response(8);
  ASSERT_TRUE(pong);
  EXPECT_TRUE(pong->contains("result")) << pong->dump();
}

TEST_F(HttpClientTransport, HttpErrorBecomesJsonRpcErrorForThatId) {
  recorder r;
  auto t = connect(r);
  // No initialize: the server has no session for this request -> HTTP 400.
  t->send(request(42, "tools/list"));
  auto res = r.response(42);
  ASSERT_TRUE(res);
  ASSERT_TRUE(res->contains("error")) << res->dump();
  EXPECT_EQ((*res)["error"]["code"], -32603);
  EXPECT_EQ((*res)["error"]["data"]["httpStatus"], 400);
}

TEST_F(HttpClientTransport, CloseDeletesTheSession) {
  recorder r;
  auto t = connect(r);
  handshake(*t, r);
  std::string sid = t->session_id();
  t->close();
  ASSERT_TRUE(r.wait_closed());
  // The session is gone on the server: its id now gets 404.
  raw_http c(server->port());
  c.send("POST", request(1, "ping"), {{"Mcp-Session-Id", sid}, {"MCP-Protocol-Version", "2025-11-25"}});
  EXPECT_EQ(c.read_reply().status, 404);
}

TEST_F(HttpClientTransport, SessionEndedByServerClosesTheTransport) {
  recorder r;
  auto t = connect(r);
  handshake(*t, r);
  ASSERT_TRUE(stream_control(*t).wait_get_stream(10s));
  raw_http c(server->port()); // another party ends the session
  c.send("DELETE", "", {{"Mcp-Session-Id", t->session_id()}, {"MCP-Protocol-Version", "2025-11-25"}});
  ASSERT_EQ(c.read_reply().status / 100, 2);
  t->send(request(9, "ping"));
  auto res = r.response(9);
  ASSERT_TRUE(res);
  EXPECT_EQ((*res)["error"]["data"]["httpStatus"], 404);
  auto reason = r.wait_closed();
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("404"), std::string::npos) << *reason;
  EXPECT_EQ(r.closed_count(), 1);
}

TEST(HttpClientTransportUrl, RefusesWhatItCannotUse) {
  http_client_options o;
  o.url = "ftp://127.0.0.1:1/mcp";
  EXPECT_THROW(make_http_client_transport(o), std::invalid_argument);
  o.url = "http://:80/mcp";
  EXPECT_THROW(make_http_client_transport(o), std::invalid_argument);
}

} // namespace
} // namespace cafmcp::test

// GET /metrics on the Streamable HTTP transport: off unless asked for, the
// same caller checks as /mcp, no session needed, and the numbers follow
// what clients did (exact counts of requests, sessions, subscriptions and
// notifications).
#include "cafmcp/prometheus_text.hpp"

#include "http_fixture.hpp"

namespace cafmcp::test {
namespace {

// The value of one sample line (`name{labels} value`), or -1 when absent.
double sample(const std::string& text, const std::string& series) {
  auto at = text.find("\n" + series + " ");
  if (at == std::string::npos)
    return -1;
  return std::stod(text.substr(at + series.size() + 2));
}

class HttpMetricsTest : public HttpTest {
protected:
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.metrics_path = "/metrics";
    o.allowed_origins = {"http://dashboard.example"};
    return o;
  }
  void SetUp() override {
    auto opts = http_test_server_options();
    opts.metrics = registry;
    srv = std::make_unique<server>(opts);
    srv->add_tool(text_tool("hello")).get();
    resource r;
    r.uri = "test://metrics/1";
    r.name = "one";
    r.contents.push_back(resource_contents::make_text(r.uri, "v0", "text/plain"));
    srv->add_resource(r).get();
    transport = std::make_unique<streamable_http>(*srv, transport_options());
    transport->start();
    port = transport->port();
  }

  http_reply scrape(std::map<std::string, std::string> headers = {}, const std::string& method = "GET") {
    raw_http c(port);
    c.send(method, "", std::move(headers), "/metrics");
    return c.read_reply();
  }

  std::shared_ptr<metrics_registry> registry = std::make_shared<metrics_registry>();
};

TEST_F(HttpMetricsTest, ServedWithoutASessionAsPrometheusText) {
  auto r = scrape();
  ASSERT_EQ(r.status, 200);
  EXPECT_EQ(r.header("content-type"), std::string(prometheus_content_type));
  EXPECT_NE(r.body.find("# TYPE cafmcp_http_connections gauge\ncafmcp_http_connections 1\n"),
            std::string::npos)
    << r.body;
  EXPECT_EQ(sample(r.body, "cafmcp_sessions"), 0);
  EXPECT_EQ(sample(r.body, "cafmcp_supervisor_restarts_total{cafmcp_actor=\"server\"}"), 0);
}

TEST_F(HttpMetricsTest, TheSameCallerChecksAsTheMcpEndpoint) {
  EXPECT_EQ(scrape({{"Host", "evil.example:80"}}).status, 403);
  EXPECT_EQ(scrape({{"Origin", "http://evil.example"}}).status, 403);
  EXPECT_EQ(scrape({{"Origin", "http://dashboard.example"}}).status, 200);
  auto post = scrape({}, "POST");
  EXPECT_EQ(post.status, 405);
  EXPECT_EQ(post.header("allow"), "GET");
}

TEST_F(HttpMetricsTest, CountsFollowWhatClientsDid) {
  constexpr int sessions = 3, calls = 4, updates = 5;
  std::vector<open_session> open;
  std::vector<std::unique_ptr<raw_http>> streams;
  for (int i = 0; i < sessions; ++i) {
    open.push_back(initialize());
    auto& s = open.back();
    s.conn->send("POST", rpc(1, "resources/subscribe", {{"uri", "test://metrics/1"}}),
                 {{"Mcp-Session-Id", s.id}});
    ASSERT_EQ(s.conn->read_reply().status, 200);
    for (int c = 0; c < calls; ++c) {
      s.conn->send("POST", rpc(10 + c, "tools/call", {{"name", "hello"}, {"arguments", json::object()}}),
                   {{"Mcp-Session-Id", s.id}});
      ASSERT_EQ(s.conn->read_reply().status, 200);
    }
    s.conn->send("POST", rpc(50, "tools/call", {{"name", "no_such_tool"}}), {{"Mcp-Session-Id", s.id}});
    ASSERT_EQ(s.conn->read_reply().status, 200);
    streams.push_back(open_stream(s));
  }
  for (int u = 0; u < updates; ++u)
    srv->resource_updated("test://metrics/1");
  for (auto& st : streams)
    for (int u = 0; u < updates; ++u) {
      auto e = st->next_event();
      ASSERT_TRUE(e.has_value());
      EXPECT_NE(e->data.find("notifications/resources/updated"), std::string::npos);
    }

  auto text = scrape().body;
  EXPECT_EQ(sample(text, "cafmcp_sessions"), sessions);
  EXPECT_EQ(sample(text, "cafmcp_http_sessions"), sessions);
  EXPECT_EQ(sample(text, "cafmcp_subscriptions"), sessions);
  EXPECT_EQ(sample(text, "cafmcp_http_streams"), sessions);
  EXPECT_EQ(sample(text, "cafmcp_server_active_requests"), 0);
  EXPECT_EQ(sample(text, "mcp_server_operation_duration_seconds_count{mcp_method_name=\"initialize\"}"),
            sessions);
  EXPECT_EQ(sample(text, "mcp_server_operation_duration_seconds_count{mcp_method_name=\"ping\"}"), sessions);
  EXPECT_EQ(
    sample(text, "mcp_server_operation_duration_seconds_count{mcp_method_name=\"resources/subscribe\"}"),
    sessions);
  EXPECT_EQ(sample(text, "mcp_server_operation_duration_seconds_count{mcp_method_name=\"tools/call\"}"),
            sessions * calls);
  // An unknown tool is invalid params (-32602): the failure has its own series.
  EXPECT_EQ(sample(text, "mcp_server_operation_duration_seconds_count{mcp_method_name=\"tools/call\","
                         "error_type=\"-32602\"}"),
            sessions);
  EXPECT_EQ(sample(text, "mcp_server_operation_duration_seconds_bucket{mcp_method_name=\"tools/call\","
                         "le=\"+Inf\"}"),
            sessions * calls);
  EXPECT_EQ(sample(text, "cafmcp_notifications_delivered_total{mcp_method_name=\"notifications/resources/"
                         "updated\"}"),
            sessions * updates);

  // A method MCP does not define is counted, under _OTHER: a client cannot
  // mint series.
  open[0].conn->send("POST", rpc(60, "made/up"), {{"Mcp-Session-Id", open[0].id}});
  EXPECT_EQ(open[0].conn->read_reply().status, 200);
  text = scrape().body;
  EXPECT_EQ(sample(text, "mcp_server_operation_duration_seconds_count{mcp_method_name=\"_OTHER\","
                         "error_type=\"-32601\"}"),
            1);
  EXPECT_EQ(text.find("made/up"), std::string::npos);

  // Sessions ended by DELETE leave the gauges.
  for (auto& s : open) {
    s.conn->send("DELETE", "", {{"Mcp-Session-Id", s.id}});
    EXPECT_EQ(s.conn->read_reply().status, 200);
  }
  srv->stats(); // a barrier: the notifier has handled what was sent to it before
  for (int i = 0; i < 100 && sample(scrape().body, "cafmcp_sessions") != 0; ++i)
    srv->stats(); // session actors end asynchronously; each round waits for the notifier
  text = scrape().body;
  EXPECT_EQ(sample(text, "cafmcp_sessions"), 0);
  EXPECT_EQ(sample(text, "cafmcp_subscriptions"), 0);
  EXPECT_EQ(sample(text, "cafmcp_http_sessions"), 0);
}

TEST(HttpMetricsOff, NotServedUnlessAskedForAndRefusedWithoutARegistry) {
  server srv(http_test_server_options());
  http_options o;
  o.port = 0;
  {
    streamable_http t(srv, o);
    t.start();
    raw_http c(t.port());
    c.send("GET", "", {}, "/metrics");
    EXPECT_EQ(c.read_reply().status, 404);
  }
  o.metrics_path = "/metrics";
  streamable_http t(srv, o);
  EXPECT_THROW(t.start(), startup_error);
}

} // namespace
} // namespace cafmcp::test

#pragma once
// A real server and Streamable HTTP transport on an ephemeral loopback port.
// The suites run twice: with one event loop (cafmcp_http_tests), and with
// three (cafmcp_http_multiloop_tests): event_loops_under_test.hpp.
#include <future>
#include <memory>

#include <gtest/gtest.h>

#include "cafmcp/server.hpp"
#include "cafmcp/streamable_http.hpp"

#include "event_loops_under_test.hpp"
#include "raw_http.hpp"

namespace cafmcp::test {

inline server_options http_test_server_options() {
  server_options o;
  o.tools = o.resources = o.prompts = capability_mode::on;
  return o;
}

inline tool text_tool(std::string name) {
  tool t;
  t.name = std::move(name);
  t.description = "answers ok";
  t.handler = [](const json&, request_context&) { return tool_result::text("ok"); };
  return t;
}

struct open_session {
  std::unique_ptr<raw_http> conn;
  std::string id;
};

class HttpTest : public ::testing::Test {
protected:
  virtual http_options transport_options() {
    http_options o;
    o.port = 0;
    o.event_loops = static_cast<std::size_t>(event_loops_under_test());
    return o;
  }
  void SetUp() override {
    srv = std::make_unique<server>(http_test_server_options());
    srv->add_tool(text_tool("hello")).get();
    transport = std::make_unique<streamable_http>(*srv, transport_options());
    transport->start();
    port = transport->port();
  }
  void TearDown() override {
    transport.reset();
    srv.reset();
  }

  open_session initialize() {
    open_session s{std::make_unique<raw_http>(port), {}};
    s.conn->send("POST", initialize_body());
    auto r = s.conn->read_reply();
    EXPECT_EQ(r.status, 200);
    s.id = r.header("mcp-session-id");
    s.conn->send("POST", initialized_body, {{"Mcp-Session-Id", s.id}});
    EXPECT_EQ(s.conn->read_reply().status, 202);
    // The session has activated itself with the notifier before it answers
    // this ping; stats() is then served after that activation.
    s.conn->send("POST", rpc(99, "ping"), {{"Mcp-Session-Id", s.id}});
    EXPECT_EQ(s.conn->read_reply().status, 200);
    srv->stats();
    return s;
  }

  /// Opens the session's standalone GET stream on a new connection and
  /// waits until the notifier delivers to it.
  std::unique_ptr<raw_http> open_stream(const open_session& s, const std::string& last_event_id = {},
                                        int rcvbuf = 0) {
    auto c = std::make_unique<raw_http>(port, rcvbuf);
    c->send("GET", "", {{"Mcp-Session-Id", s.id}, {"Last-Event-ID", last_event_id}});
    auto r = c->read_reply();
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.header("content-type"), "text/event-stream");
    return c;
  }

  std::unique_ptr<server> srv;
  std::unique_ptr<streamable_http> transport;
  std::uint16_t port = 0;
};

} // namespace cafmcp::test

// Overload is answered, never absorbed: a connection past max_connections
// gets 503 with Retry-After and is closed; a client that sends its request
// slowly, or nothing at all, loses its connection at the header or body
// timeout (408 when part of a request came); and a flood of connections
// leaves the server serving. Small limits, so that the tests run fast; no
// timing is asserted (each wait is a bound on a condition).
#include <sys/resource.h>
#include <sys/socket.h>

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

#include "http_fixture.hpp"

namespace cafmcp::test {
namespace {

const std::string health_request = "GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";

class HttpOverload : public HttpTest {
protected:
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.max_connections = 8;
    o.request_header_timeout = std::chrono::milliseconds(200);
    o.request_body_timeout = std::chrono::milliseconds(200);
    return o;
  }
  // The server has let go of every connection (it notices each close on
  // its loop): a bounded wait for the condition.
  bool no_connection_left() {
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (transport->stats().open_connections > 0 && std::chrono::steady_clock::now() < give_up)
      std::this_thread::yield();
    return transport->stats().open_connections == 0;
  }
  // A connection that is served: it answered a health check, and stays
  // open (keep-alive) until the test closes it.
  std::unique_ptr<raw_http> served() {
    auto c = std::make_unique<raw_http>(port);
    c->send_raw(health_request);
    EXPECT_EQ(c->read_reply().status, 200);
    return c;
  }
};

TEST_F(HttpOverload, AConnectionPastTheLimitGets503WithRetryAfterAndIsClosed) {
  std::vector<std::unique_ptr<raw_http>> held;
  for (int i = 0; i < 8; ++i)
    held.push_back(served());
  raw_http extra(port);
  extra.send_raw(health_request);
  auto r = extra.read_reply();
  EXPECT_EQ(r.status, 503);
  EXPECT_EQ(r.header("retry-after"), "1");
  EXPECT_EQ(r.json_body()["error"]["code"], -32000);
  EXPECT_TRUE(extra.closed_by_peer());
  // A connection that leaves frees its place (bounded: the server notices
  // the close on its own loop).
  held.pop_back();
  bool served_again = false;
  for (int i = 0; i < 200 && !served_again; ++i) {
    raw_http next(port);
    next.send_raw(health_request);
    served_again = next.read_reply().status == 200;
  }
  EXPECT_TRUE(served_again);
}

TEST_F(HttpOverload, AHeaderThatStopsComingIsAnswered408AndClosed) {
  raw_http slow(port);
  slow.send_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty");
  auto r = slow.read_reply(std::chrono::seconds(10));
  EXPECT_EQ(r.status, 408);
  EXPECT_TRUE(slow.closed_by_peer());
}

TEST_F(HttpOverload, ABodyThatStopsComingIsAnswered408AndClosed) {
  raw_http slow(port);
  slow.send_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                "Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"jsonrpc\"");
  auto r = slow.read_reply(std::chrono::seconds(10));
  EXPECT_EQ(r.status, 408);
  EXPECT_TRUE(slow.closed_by_peer());
}

// The read's deadline moves with each request on a keep-alive connection
// (one wait stays armed): a later request that stops coming is still
// answered 408, in time, after requests that were served.
TEST_F(HttpOverload, ALaterRequestThatStopsComingOnAKeptConnectionIsAnswered408) {
  auto kept = served();
  kept->send_raw(health_request);
  EXPECT_EQ(kept->read_reply().status, 200);
  kept->send_raw("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                 "Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{\"json");
  auto r = kept->read_reply(std::chrono::seconds(10));
  EXPECT_EQ(r.status, 408);
  EXPECT_TRUE(kept->closed_by_peer());
}

// A connection that keeps asking is never timed out, however long it lives:
// requests for three header timeouts on one connection, every one answered.
TEST_F(HttpOverload, AConnectionThatKeepsAskingOutlivesTheHeaderTimeout) {
  auto kept = served();
  const auto until = std::chrono::steady_clock::now() + 3 * std::chrono::milliseconds(200);
  int answered = 0;
  while (std::chrono::steady_clock::now() < until) {
    kept->send_raw(health_request);
    ASSERT_EQ(kept->read_reply().status, 200) << "after " << answered << " answers";
    ++answered;
  }
  EXPECT_GT(answered, 0);
}

// A body that comes after its header is read whole, as one that came with
// it is. Two writes may still reach the server as one segment, so the body
// is also larger than one read (Beast reads at most 64 KiB at a time): the
// header's read ends with only part of it, whatever the kernel joins, and
// the rest is read after the part already buffered is parsed.
TEST_F(HttpOverload, ABodyThatComesInPiecesIsReadWhole) {
  auto body = json::parse(initialize_body());
  body["params"]["capabilities"]["experimental"]["padding"]["text"] = std::string(256 * 1024, 'x');
  raw_http c(port);
  const auto text = c.request_text("POST", body.dump());
  const auto cut = text.find("\r\n\r\n") + 4 + 10;
  c.send_raw(text.substr(0, cut));
  c.send_raw(text.substr(cut));
  auto r = c.read_reply();
  EXPECT_EQ(r.status, 200);
  EXPECT_TRUE(r.json_body()["result"].contains("protocolVersion"));
}

// Requests written together (pipelined: one segment, often) are each read
// from what the last read left, and answered in turn.
TEST_F(HttpOverload, RequestsWrittenTogetherAreAnsweredInTurn) {
  raw_http c(port);
  c.send_raw(health_request + c.request_text("POST", initialize_body(7)) + health_request);
  EXPECT_EQ(c.read_reply().status, 200);
  auto init = c.read_reply();
  EXPECT_EQ(init.status, 200);
  EXPECT_EQ(init.json_body()["id"], 7);
  EXPECT_EQ(c.read_reply().status, 200);
}

// A client that stops sending halfway through a request (its end of the
// stream) is let go: no answer, the connection closes, and the server
// serves the next client. Before the header ends and in the body alike.
TEST_F(HttpOverload, AClientThatLeavesMidRequestIsLetGo) {
  for (const std::string part : {std::string("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Le"),
                                 std::string("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                                             "application/json\r\nContent-Length: 100\r\n\r\n{\"js")}) {
    raw_http c(port);
    c.send_raw(part);
    ::shutdown(c.fd(), SHUT_WR);
    EXPECT_TRUE(c.closed_by_peer()) << part;
    EXPECT_THROW(c.read_reply(), std::runtime_error) << part; // closed with nothing sent
  }
  EXPECT_TRUE(no_connection_left());
  served();
}

TEST_F(HttpOverload, AConnectionThatSaysNothingIsClosed) {
  auto idle = served(); // a keep-alive connection with no next request
  raw_http silent(port);
  EXPECT_TRUE(silent.closed_by_peer(std::chrono::seconds(10)));
  EXPECT_TRUE(idle->closed_by_peer(std::chrono::seconds(10)));
  EXPECT_TRUE(no_connection_left());
}

// The flood tests: the served connections stay open (no header timeout
// while a flood lasts), so exactly the first 8 of each wave are served.
class HttpFlood : public HttpOverload {
protected:
  http_options transport_options() override {
    auto o = HttpOverload::transport_options();
    o.request_header_timeout = std::chrono::minutes(5);
    return o;
  }
  struct answers {
    int ok = 0;
    int refused = 0;
  };
  // `n` connections open at once, each asking for a health check; then
  // every answer is read and they all close.
  answers flood(int n) {
    std::vector<std::unique_ptr<raw_http>> conns;
    for (int i = 0; i < n; ++i) {
      conns.push_back(std::make_unique<raw_http>(port));
      conns.back()->send_raw(health_request);
    }
    answers a;
    for (auto& c : conns) {
      auto status = c->read_reply().status;
      a.ok += status == 200;
      a.refused += status == 503;
    }
    return a;
  }
};

// 10,000 connections in waves of 500, each wave held open at once (past the
// limit of 8): the first 8 of a wave are served, every other one is
// answered 503, and after the flood a session still works.
TEST_F(HttpFlood, AFloodOfConnectionsLeavesTheServerServing) {
  for (int wave = 0; wave < 20; ++wave) {
    auto a = flood(500);
    EXPECT_EQ(a.ok, 8) << "wave " << wave;
    EXPECT_EQ(a.refused, 492) << "wave " << wave;
    ASSERT_TRUE(no_connection_left()) << "wave " << wave;
  }
  auto s = initialize();
  s.conn->send("POST", rpc(5, "tools/call", {{"name", "hello"}}), {{"Mcp-Session-Id", s.id}});
  EXPECT_EQ(s.conn->read_reply().json_body()["result"]["content"][0]["text"], "ok");
}

// 10,000 connections open at once: the same answers, and the server goes on.
// The test process holds every client end, so it raises its own descriptor
// limit (the server's ends of refused connections close as they are
// answered).
TEST_F(HttpFlood, TenThousandConnectionsAtOnceAreAnsweredAndTheServerGoesOn) {
  constexpr int connections = 10000;
  rlimit fds{};
  ASSERT_EQ(getrlimit(RLIMIT_NOFILE, &fds), 0);
  if (fds.rlim_max != RLIM_INFINITY && fds.rlim_max < connections + 1000)
    GTEST_SKIP() << "the hard descriptor limit (" << fds.rlim_max << ") is below " << connections + 1000;
  if (fds.rlim_cur != RLIM_INFINITY && fds.rlim_cur < connections + 1000) {
    fds.rlim_cur = connections + 1000;
    ASSERT_EQ(setrlimit(RLIMIT_NOFILE, &fds), 0);
  }
  auto a = flood(connections);
  EXPECT_EQ(a.ok, 8);
  EXPECT_EQ(a.refused, connections - 8);
  ASSERT_TRUE(no_connection_left());
  auto s = initialize();
  s.conn->send("POST", rpc(5, "tools/call", {{"name", "hello"}}), {{"Mcp-Session-Id", s.id}});
  EXPECT_EQ(s.conn->read_reply().json_body()["result"]["content"][0]["text"], "ok");
}

} // namespace
} // namespace cafmcp::test

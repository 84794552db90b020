// One connection's SSE writes, read by a plain socket on loopback: the
// bytes of each event exactly, in order, whatever the length of its id (a
// head longer than a queued chunk holds inline is written from the heap),
// whether the socket took an event at once or only after it was read, and
// whether an event was queued or, alone (followed::no), went straight into
// the step's collected writes.
// Each test runs twice: with a step's writes sent together (one io_uring
// submission; http_options::batched_writes) and with a send(2) each.
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <unistd.h>

#include "streamable_http/http_conn.hpp"

namespace cafmcp::http {
namespace {

// Exactly `n` bytes (blocking: what never comes fails the test by its timeout).
std::string read_exactly(tcp::socket& s, std::size_t n) {
  std::string out(n, '\0');
  net::read(s, net::buffer(out));
  return out;
}

// One SSE event as it must arrive.
std::string event(const std::string& id, const std::string& data) {
  std::string e = "id: ";
  e += id;
  e += "\ndata: ";
  e += data;
  e += "\n\n";
  return e;
}

class HttpConn : public ::testing::TestWithParam<bool> {
protected:
  void SetUp() override {
    if (GetParam() && !send_ring(true).batched())
      GTEST_SKIP() << "io_uring cannot be used here: the send(2) run covers this";
  }
  // A loop as the transport makes one (limits: unread bytes, connections).
  std::unique_ptr<connection_loop> make_loop(std::size_t max_unread, std::size_t max_connections = 10) {
    return std::make_unique<connection_loop>(
      connection_limits{0, 0, max_unread, max_connections, std::chrono::seconds(10),
                        std::chrono::seconds(10)},
      counters, &http_conn::start_due_write, &http_conn::send_collected, GetParam());
  }
  connection_counters counters;
};

TEST_P(HttpConn, EventsOfEveryIdLengthArriveWholeAndInOrder) {
  auto loop_owner = make_loop(1 << 20);
  auto& loop = *loop_owner;
  EXPECT_EQ(loop.sends.batched(), GetParam());
  tcp::acceptor acceptor(loop.ioc, {net::ip::address_v4::loopback(), 0});
  tcp::socket client(loop.ioc);
  client.connect(acceptor.local_endpoint());
  auto conn = std::make_shared<http_conn>(acceptor.accept(loop.ioc), loop);
  auto data = std::make_shared<const std::string>(R"({"jsonrpc":"2.0","method":"m"})");
  constexpr auto u64 = std::numeric_limits<std::uint64_t>::max();
  constexpr auto u32 = std::numeric_limits<std::uint32_t>::max();
  constexpr auto alone = http_conn::followed::no;
  conn->send_event(7, 9, data, alone);                       // idle: straight to the collected writes
  conn->send_event(stream_mark{{u64, u64, u32}, u32}, data); // the longest id there is
  conn->send_event(u64, u64, data, alone);                   // queued (one is being written); from the heap
  conn->send_event(stream_mark{{1, 2, 3}, 4}, data);         // short: inline
  loop.ioc.poll();                                           // the writes start on the loop's next step
  auto n = [](auto v) { return std::to_string(v); };
  std::string longest_mark = "L";
  longest_mark += n(u64) + "-" + n(u64) + "." + n(u32) + "." + n(u32);
  std::string expected;
  for (const std::string& id :
       {std::string("7-9"), longest_mark, n(u64) + "-" + n(u64), std::string("L1-2.3.4")})
    expected += event(id, *data);
  EXPECT_EQ(read_exactly(client, expected.size()), expected);
  EXPECT_EQ(counters.queued_bytes.load(), 0u); // all of it left the process
}

// A client socket and the connection serving it on `loop` (non-blocking,
// as the transport's are).
std::pair<std::unique_ptr<tcp::socket>, std::shared_ptr<http_conn>> open_pair(connection_loop& loop,
                                                                              tcp::acceptor& acceptor) {
  auto c = std::make_unique<tcp::socket>(loop.ioc);
  c->connect(acceptor.local_endpoint());
  auto s = acceptor.accept(loop.ioc);
  s.non_blocking(true);
  return {std::move(c), std::make_shared<http_conn>(std::move(s), loop)};
}

// What the reader already has (none of it waits).
std::string read_available(tcp::socket& s) { return read_exactly(s, s.available()); }

// Past a full socket: a write the kernel takes only part of leaves its
// rest to an asynchronous write, events queued meanwhile follow it, and
// the reader, which reads now and then while events are queued and the
// loop takes turns, and the rest at the end, gets every byte in order.
TEST_P(HttpConn, EventsStayWholeAndInOrderPastAFullSocket) {
  auto loop_owner = make_loop(1 << 30);
  auto& loop = *loop_owner;
  tcp::acceptor acceptor(loop.ioc, {net::ip::address_v4::loopback(), 0});
  tcp::socket client(loop.ioc);
  client.open(net::ip::tcp::v4());
  client.set_option(net::socket_base::receive_buffer_size(4096)); // before connect: the window
  client.connect(acceptor.local_endpoint());
  auto server_end = acceptor.accept(loop.ioc);
  server_end.set_option(net::socket_base::send_buffer_size(4096));
  server_end.non_blocking(true);
  auto conn = std::make_shared<http_conn>(std::move(server_end), loop);
  std::string expected, got;
  constexpr int events = 400; // ~400 KB: far more than both buffers hold
  for (int i = 0; i < events; ++i) {
    // Lengths that do not divide the buffers: partial writes end mid-event.
    auto data =
      std::make_shared<const std::string>(std::string(700 + (i * 37) % 500, static_cast<char>('a' + i % 26)));
    conn->send_event(0, static_cast<std::uint64_t>(i), data);
    expected += event("0-" + std::to_string(i), *data);
    if (i % 25 == 24) {
      loop.ioc.poll(); // the due write, and whatever completed of one in flight
      got += read_available(client);
    }
  }
  EXPECT_GT(counters.queued_bytes.load(), 0u); // the socket was full: some of it waits
  // The queued writes go on on the loop's thread, which closes the
  // connection after the last (a missing byte is then an end of stream,
  // not a wait); this one reads.
  conn->end_sse();
  std::thread writer([&] { loop.ioc.run(); });
  std::string rest(expected.size() - got.size(), '\0');
  beast::error_code ec; // the end of the stream, should bytes be missing
  rest.resize(net::read(client, net::buffer(rest), ec));
  got += rest;
  writer.join();
  EXPECT_EQ(got.size(), expected.size());
  EXPECT_TRUE(got == expected) << "first difference at byte "
                               << std::mismatch(got.begin(), got.end(), expected.begin()).first - got.begin();
  EXPECT_EQ(counters.queued_bytes.load(), 0u);
}

// A broadcast's step: every connection's event is collected and sent with
// the others. Each reader gets exactly its own bytes; a connection dropped
// after its event was queued, and one whose reader has left, end without
// disturbing the rest, and the survivors' next events (the round after)
// arrive too.
TEST_P(HttpConn, ABroadcastReachesEveryConnectionWhateverBecomesOfSome) {
  constexpr int n = 40;
  auto loop_owner = make_loop(1 << 20, n + 1);
  auto& loop = *loop_owner;
  tcp::acceptor acceptor(loop.ioc, {net::ip::address_v4::loopback(), 0});
  std::vector<tcp::socket> clients;
  std::vector<std::shared_ptr<http_conn>> conns;
  for (int i = 0; i < n; ++i) {
    clients.emplace_back(loop.ioc);
    clients.back().connect(acceptor.local_endpoint());
    auto s = acceptor.accept(loop.ioc);
    s.non_blocking(true);
    conns.push_back(std::make_shared<http_conn>(std::move(s), loop));
  }
  // One of each queued (odd) and alone (even).
  auto dropped = [](int i) { return i == 3 || i == 4; };
  auto left = [](int i) { return i == 7 || i == 8; };
  for (int i = 0; i < n; ++i)
    if (left(i))
      clients[i].close(); // its writes fail (EPIPE or a reset) once the kernel knows
  auto data =
    std::make_shared<const std::string>(R"({"jsonrpc":"2.0","method":"notifications/resources/updated"})");
  for (int round = 0; round < 3; ++round) {
    for (int i = 0; i < n; ++i) // the even ones alone (one update at a time), the odd ones queued
      if (conns[i]->open())
        conns[i]->send_event(1, static_cast<std::uint64_t>(round), data,
                             i % 2 == 0 ? http_conn::followed::no : http_conn::followed::maybe);
    if (round == 0)
      for (int i = 0; i < n; ++i)
        if (dropped(i))
          conns[i]->drop(); // handed over, then dropped before the step's send: nothing of it goes
    loop.ioc.poll();
    loop.ioc.restart();
  }
  std::string expected;
  for (int round = 0; round < 3; ++round)
    expected += event("1-" + std::to_string(round), *data);
  for (int i = 0; i < n; ++i) {
    if (dropped(i)) {
      beast::error_code ec;
      std::string got(64, '\0');
      got.resize(clients[i].read_some(net::buffer(got), ec));
      EXPECT_EQ(ec, net::error::eof) << "the dropped connection sent " << got.size() << " bytes";
      continue;
    }
    if (left(i)) {
      EXPECT_FALSE(conns[i]->open()); // a write to a reader that left ends the connection
      continue;
    }
    EXPECT_EQ(read_exactly(clients[i], expected.size()), expected) << "connection " << i;
  }
  conns.clear(); // the dropped ones count what they never wrote until they go
  EXPECT_EQ(counters.queued_bytes.load(), 0u);
  EXPECT_FALSE(loop.collecting); // the step is over
}

// A connection closed while its next write waits to be sent with others
// (its reader's earlier connection failed, and that connection's close
// closed this one) sends nothing more, to no descriptor at all: its reader
// gets whole events, then the end of the stream.
TEST_P(HttpConn, AConnectionClosedWhileItsWriteWaitsSendsNothingMore) {
  auto loop_owner = make_loop(1 << 20);
  auto& loop = *loop_owner;
  tcp::acceptor acceptor(loop.ioc, {net::ip::address_v4::loopback(), 0});
  auto [b_client, b] = open_pair(loop, acceptor);
  auto [a_client, a] = open_pair(loop, acceptor);
  a_client->close();
  auto tiny = std::make_shared<const std::string>("x");
  a->send_event(0, 0, tiny); // the kernel answers it with a reset
  loop.ioc.poll();
  loop.ioc.restart();
  ASSERT_TRUE(a->open()); // the first write went; the second fails
  // b's close frees its descriptor (and a's, closed just before); a
  // socket pair opened at once takes those numbers (the lowest free ones):
  // a write still addressed to b's number would land in it.
  int reused[2] = {-1, -1};
  a->on_close = [b = b, &reused] {
    b->drop();
    ASSERT_EQ(::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, reused), 0);
  };
  // 200 tiny events: more than one write takes (128 chunks), so b's write
  // after its first is collected for the step's next round.
  constexpr int events = 200;
  std::string expected;
  for (int i = 0; i < events; ++i) {
    b->send_event(0, static_cast<std::uint64_t>(i), tiny);
    expected += event("0-" + std::to_string(i), *tiny);
  }
  a->send_event(0, 1, tiny);
  loop.ioc.poll();
  EXPECT_FALSE(a->open());
  EXPECT_FALSE(b->open());
  char stray[256];
  for (int end : reused) // a pair: each end reads what was written to the other
    EXPECT_EQ(::recv(end, stray, sizeof stray, MSG_DONTWAIT), -1) << "bytes meant for b reached a new socket";
  for (int end : reused)
    ::close(end);
  std::string got;
  beast::error_code ec;
  char buf[4096];
  while (!ec)
    got.append(buf, b_client->read_some(net::buffer(buf), ec));
  EXPECT_EQ(ec, net::error::eof);
  ASSERT_LE(got.size(), expected.size());
  EXPECT_EQ(got, expected.substr(0, got.size()));
  // Whole events only: the cut falls where one ends.
  EXPECT_TRUE(got.empty() || got.ends_with("\n\n"));
  if (GetParam()) { // the second write waited, and was not sent
    EXPECT_EQ(got, expected.substr(0, expected.find("id: 0-128\n")));
  }
  a.reset();
  b.reset();
  EXPECT_EQ(counters.queued_bytes.load(), 0u); // nothing still counted as on its way
}

// A lone event waits for the loop's step like any other, and what is sent
// to its connection after it in the same step (alone or not) follows it in
// order. One sent while the step's writes are being sent (a connection's
// close handler sending to another, as a session's end does) goes out in
// the same step: nothing is left collected with no send to come.
TEST_P(HttpConn, LoneEventsLeaveWithTheStepInTurn) {
  auto loop_owner = make_loop(1 << 20);
  auto& loop = *loop_owner;
  tcp::acceptor acceptor(loop.ioc, {net::ip::address_v4::loopback(), 0});
  auto [a_client, a] = open_pair(loop, acceptor);
  auto [b_client, b] = open_pair(loop, acceptor);
  auto data = std::make_shared<const std::string>("d");
  constexpr auto alone = http_conn::followed::no;
  a->send_event(0, 1, data, alone);
  a->send_event(0, 2, data);
  a->send_event(0, 3, data, alone);
  EXPECT_EQ(a_client->available(), 0u); // nothing before the loop's step
  EXPECT_GT(counters.queued_bytes.load(), 0u);
  loop.ioc.poll();
  loop.ioc.restart();
  std::string first_step = event("0-1", *data) + event("0-2", *data) + event("0-3", *data);
  EXPECT_EQ(read_exactly(*a_client, first_step.size()), first_step);
  // a's reader leaves; a's next write still goes (the kernel answers it
  // with a reset), the one after fails and closes a, whose close sends to b.
  a_client->close();
  a->send_event(0, 4, data, alone);
  loop.ioc.poll();
  loop.ioc.restart();
  ASSERT_TRUE(a->open());
  a->on_close = [b = b, data] { b->send_event(0, 1, data, http_conn::followed::no); };
  a->send_event(0, 5, data, alone);
  loop.ioc.poll(); // one step: a's write fails, a closes, b's event is sent
  EXPECT_FALSE(a->open());
  EXPECT_EQ(read_exactly(*b_client, event("0-1", *data).size()), event("0-1", *data));
  EXPECT_FALSE(loop.collecting);
  EXPECT_TRUE(loop.collected.jobs.empty());
  a.reset();
  EXPECT_EQ(counters.queued_bytes.load(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Writes, HttpConn, ::testing::Values(true, false),
                         [](const auto& p) { return p.param ? "Batched" : "OneByOne"; });

} // namespace
} // namespace cafmcp::http

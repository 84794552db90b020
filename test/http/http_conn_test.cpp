// One connection's SSE writes, read by a plain socket on loopback: the
// bytes of each event exactly, in order, whatever the length of its id (a
// head longer than a queued chunk holds inline is written from the heap),
// and whether the socket took an event at once or only after it was read.
#include <algorithm>
#include <limits>
#include <memory>
#include <string>
#include <thread>

#include <gtest/gtest.h>

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

TEST(HttpConn, EventsOfEveryIdLengthArriveWholeAndInOrder) {
  connection_counters counters;
  connection_loop loop({0, 0, 1 << 20, 10, std::chrono::seconds(10), std::chrono::seconds(10)}, counters,
                       &http_conn::start_due_write);
  tcp::acceptor acceptor(loop.ioc, {net::ip::address_v4::loopback(), 0});
  tcp::socket client(loop.ioc);
  client.connect(acceptor.local_endpoint());
  auto conn = std::make_shared<http_conn>(acceptor.accept(), loop);
  auto data = std::make_shared<const std::string>(R"({"jsonrpc":"2.0","method":"m"})");
  constexpr auto u64 = std::numeric_limits<std::uint64_t>::max();
  constexpr auto u32 = std::numeric_limits<std::uint32_t>::max();
  conn->send_event(7, 9, data);                              // short: inline
  conn->send_event(stream_mark{{u64, u64, u32}, u32}, data); // the longest id there is
  conn->send_event(u64, u64, data);                          // long: from the heap
  conn->send_event(stream_mark{{1, 2, 3}, 4}, data);
  loop.ioc.poll(); // the writes start on the loop's next step
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

// What the reader already has (none of it waits).
std::string read_available(tcp::socket& s) { return read_exactly(s, s.available()); }

// Past a full socket: a write the kernel takes only part of leaves its
// rest to an asynchronous write, events queued meanwhile follow it, and
// the reader, which reads now and then while events are queued and the
// loop takes turns, and the rest at the end, gets every byte in order.
TEST(HttpConn, EventsStayWholeAndInOrderPastAFullSocket) {
  connection_counters counters;
  connection_loop loop({0, 0, 1 << 30, 10, std::chrono::seconds(10), std::chrono::seconds(10)}, counters,
                       &http_conn::start_due_write);
  tcp::acceptor acceptor(loop.ioc, {net::ip::address_v4::loopback(), 0});
  tcp::socket client(loop.ioc);
  client.open(net::ip::tcp::v4());
  client.set_option(net::socket_base::receive_buffer_size(4096)); // before connect: the window
  client.connect(acceptor.local_endpoint());
  auto server_end = acceptor.accept();
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

} // namespace
} // namespace cafmcp::http

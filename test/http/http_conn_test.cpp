// One connection's SSE writes, read by a plain socket on loopback: the
// bytes of each event exactly, in order, whatever the length of its id (a
// head longer than a queued chunk holds inline is written from the heap).
#include <limits>
#include <memory>
#include <string>

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
       {std::string("7-9"), longest_mark, n(u64) + "-" + n(u64), std::string("L1-2.3.4")}) {
    expected += "id: ";
    expected += id;
    expected += "\ndata: ";
    expected += *data;
    expected += "\n\n";
  }
  EXPECT_EQ(read_exactly(client, expected.size()), expected);
  EXPECT_EQ(counters.queued_bytes.load(), 0u); // all of it left the process
}

} // namespace
} // namespace cafmcp::http

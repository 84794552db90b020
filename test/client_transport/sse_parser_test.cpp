#include <gtest/gtest.h>

#include <limits>

#include "client_transport/reconnect_delay.hpp"
#include "client_transport/sse_parser.hpp"

using cafmcp::client_detail::sse_event;
using cafmcp::client_detail::sse_parser;

TEST(SseParser, EventsSplitAcrossChunksAndLineEndings) {
  sse_parser p;
  std::vector<sse_event> out;
  std::string stream = "id: 0-0\nretry: 1500\ndata: \n\n: keep-alive\n\nid: 0-1\r\ndata: {\"a\":1}\r\n\r\n"
                       "event: message\ndata: x\ndata: y\n\n";
  for (char c : stream) // one byte at a time: every boundary is a chunk boundary
    p.feed(std::string_view(&c, 1), out);
  ASSERT_EQ(out.size(), 3u);
  EXPECT_TRUE(out[0].has_id);
  EXPECT_EQ(out[0].data, ""); // priming: an id, no data
  EXPECT_EQ(out[1].id, "0-1");
  EXPECT_EQ(out[1].data, "{\"a\":1}");
  EXPECT_FALSE(out[2].has_id);
  EXPECT_EQ(out[2].id, "0-1"); // the last id carries over
  EXPECT_EQ(out[2].data, "x\ny");
  EXPECT_EQ(out[2].event, "message");
  EXPECT_EQ(p.retry_ms(), 1500);
  EXPECT_EQ(p.last_event_id(), "0-1");
}

TEST(SseParser, IncompleteEventWaitsAndBadRetryIsIgnored) {
  sse_parser p;
  std::vector<sse_event> out;
  p.feed("retry: soon\ndata: partial", out);
  EXPECT_TRUE(out.empty());
  EXPECT_FALSE(p.retry_ms());
  EXPECT_FALSE(p.has_last_event_id());
  p.feed("\n\n", out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].data, "partial");
}

// Found by fuzz/sse_parser: "retry:-1" was taken as a delay of -1 ms.
TEST(SseParser, RetryIsDigitsOnly) {
  sse_parser p;
  std::vector<sse_event> out;
  p.feed("retry: 250\n\nretry:-1\n\nretry: +5\n\nretry: 1e3\n\n", out);
  EXPECT_EQ(p.retry_ms(), 250);
  p.feed("retry:99999999999999999999999\n\n", out); // past a long: ignored too
  EXPECT_EQ(p.retry_ms(), 250);
  p.feed("retry:0\n\n", out);
  EXPECT_EQ(p.retry_ms(), 0);
  EXPECT_TRUE(out.empty());
}

// An event larger than the limit (in one line, or over many data lines) is
// never buffered past it: the parser stops and says so; events before it
// came out whole.
TEST(SseParser, AnEventOverTheLimitStopsTheParser) {
  sse_parser p(64);
  std::vector<sse_event> out;
  p.feed("data: small\n\n", out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_FALSE(p.overflowed());
  p.feed("data: " + std::string(100, 'x'), out); // one line, never ended
  EXPECT_TRUE(p.overflowed());
  p.feed("\n\ndata: after\n\n", out);
  EXPECT_EQ(out.size(), 1u); // nothing more once overflowed

  sse_parser lines(64);
  for (int i = 0; i < 20 && !lines.overflowed(); ++i)
    lines.feed("data: 0123456789\n", out); // many short lines, one growing event
  EXPECT_TRUE(lines.overflowed());
}

// The reconnect delay: the server's retry honoured up to a day, doubled per
// failure up to the cap, and no arithmetic overflow whatever the server says.
TEST(ReconnectDelay, HonoursTheServerBoundedAndDoublesUpToTheCap) {
  using cafmcp::client_detail::reconnect_delay;
  using ms = std::chrono::milliseconds;
  const ms initial{100}, cap{5000};
  EXPECT_EQ(reconnect_delay(1, std::nullopt, initial, cap), ms(100));
  EXPECT_EQ(reconnect_delay(3, std::nullopt, initial, cap), ms(400));
  EXPECT_EQ(reconnect_delay(30, std::nullopt, initial, cap), cap);
  EXPECT_EQ(reconnect_delay(1, 250, initial, cap), ms(250));
  EXPECT_EQ(reconnect_delay(1, 60000, initial, cap), ms(60000)); // the server asked for more than the cap
  EXPECT_EQ(reconnect_delay(5, 60000, initial, cap), ms(60000));
  EXPECT_EQ(reconnect_delay(1, 0, initial, cap), ms(0));
  auto most = cafmcp::client_detail::longest_server_retry;
  EXPECT_EQ(reconnect_delay(1, std::numeric_limits<long>::max(), initial, cap), most);
  EXPECT_EQ(reconnect_delay(60, std::numeric_limits<long>::max(), initial, cap), most);
  // Doubling saturates at the cap instead of overflowing (UBSan would say).
  EXPECT_EQ(reconnect_delay(1000, std::nullopt, ms(std::numeric_limits<long>::max() / 2), ms::max()), ms::max());
}

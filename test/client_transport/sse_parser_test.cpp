#include <gtest/gtest.h>

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

// The SSE parser against damaged streams (what a hostile or broken server
// may send): whatever the bytes, they parse without a throw, and how they
// are cut into chunks never changes what comes out, including a CR at the
// end of one chunk and its LF at the start of the next.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "client_transport/sse_parser.hpp"
#include "mutator.hpp"

namespace {

using cafmcp::client_detail::sse_event;
using cafmcp::client_detail::sse_parser;

const std::string stream =
  "id: 0-0\nretry: 1500\ndata: \n\n: keep-alive\n\nid: 0-1\r\ndata: {\"a\":1}\r\n\r\n"
  "event: message\ndata: x\ndata: y\n\nid: 1-9\revent: other\rdata: z\r\r";

struct parsed {
  std::vector<sse_event> events;
  std::optional<long> retry;
  std::string last_id;
};

parsed whole(const std::string& bytes) {
  sse_parser p;
  parsed r;
  p.feed(bytes, r.events);
  r.retry = p.retry_ms();
  r.last_id = p.last_event_id();
  return r;
}

parsed in_chunks(const std::string& bytes, cafmcp::test::mutator& cut) {
  sse_parser p;
  parsed r;
  for (std::size_t at = 0; at < bytes.size();) {
    auto n = std::min(bytes.size() - at, cut.pick(8) + 1);
    p.feed(std::string_view(bytes).substr(at, n), r.events);
    at += n;
  }
  r.retry = p.retry_ms();
  r.last_id = p.last_event_id();
  return r;
}

TEST(SseParserMutation, DamagedStreamsParseTheSameInAnyChunks) {
  cafmcp::test::mutator mutate(20261123);
  for (int i = 0; i < 5000; ++i) {
    auto bytes = mutate(stream);
    auto a = whole(bytes);
    auto b = in_chunks(bytes, mutate);
    ASSERT_EQ(a.events.size(), b.events.size()) << bytes;
    for (std::size_t k = 0; k < a.events.size(); ++k) {
      EXPECT_EQ(a.events[k].id, b.events[k].id) << bytes;
      EXPECT_EQ(a.events[k].has_id, b.events[k].has_id) << bytes;
      EXPECT_EQ(a.events[k].event, b.events[k].event) << bytes;
      EXPECT_EQ(a.events[k].data, b.events[k].data) << bytes;
    }
    EXPECT_EQ(a.retry, b.retry) << bytes;
    EXPECT_EQ(a.last_id, b.last_id) << bytes;
    if (HasFailure())
      return;
  }
}

} // namespace

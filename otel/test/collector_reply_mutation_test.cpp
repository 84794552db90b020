// What a collector answers, damaged: the protobuf ExportTraceServiceResponse
// (partial_success) and Retry-After. A damaged reply decodes to nothing or
// to a value, never a throw or a read past its end; an intact one still
// decodes to what it says, whatever follows it in an unknown field.
#include <chrono>
#include <string>

#include <gtest/gtest.h>

#include "cafmcp/otel/otlp_protobuf.hpp"

#include "mutator.hpp"
#include "retry_after.hpp"

namespace cafmcp::otel {
namespace {

using namespace std::string_literals;

// partial_success{rejected_spans: 2, error_message: "x"}, then an unknown
// varint field (15) and an unknown length-delimited one (16).
const std::string reply = "\x0a\x05\x08\x02\x12\x01x"s + "\x78\x96\x01"s
                          + "\x82\x01\x03"
                            "abc"s;

TEST(CollectorReplyMutation, DamagedProtobufRepliesDecodeToNothingOrAValue) {
  auto intact = decode_otlp_protobuf_response(reply);
  ASSERT_TRUE(intact);
  EXPECT_EQ(intact->rejected_spans, 2);
  EXPECT_EQ(intact->error_message, "x");
  test::mutator mutate(20261123);
  int decoded = 0;
  for (int i = 0; i < 50000; ++i) {
    auto damaged = mutate(reply);
    if (auto ps = decode_otlp_protobuf_response(damaged)) { // a throw fails the test
      ++decoded;
      EXPECT_LE(ps->error_message.size(), damaged.size());
    }
  }
  EXPECT_GT(decoded, 1000);
}

TEST(CollectorReplyMutation, DamagedRetryAfterIsIgnoredOrAWaitAhead) {
  auto now = std::chrono::system_clock::now();
  test::mutator mutate(20261124);
  for (int i = 0; i < 20000; ++i) {
    auto value = mutate(i % 2 ? "120"s : "Sun, 06 Nov 2044 08:49:37 GMT"s);
    if (auto wait = detail::parse_retry_after(value, now)) { // a throw fails the test
      EXPECT_GE(wait->count(), 0) << value;
    }
  }
}

} // namespace
} // namespace cafmcp::otel

// Ids and W3C trace context: formats, round trips, and strict rejection.
#include <unordered_set>

#include <gtest/gtest.h>

#include "cafmcp/otel/context.hpp"
#include "member_span_ids.hpp"

namespace cafmcp::otel {
namespace {

const char* example = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

TEST(Ids, RandomIdsAreValidHexOfTheRightLength) {
  for (int i = 0; i < 100; ++i) {
    auto t = random_trace_id();
    auto s = random_span_id();
    EXPECT_TRUE(is_valid(t));
    EXPECT_TRUE(is_valid(s));
    auto th = to_hex(t), sh = to_hex(s);
    EXPECT_EQ(th.size(), 32u);
    EXPECT_EQ(sh.size(), 16u);
    EXPECT_EQ(th.find_first_not_of("0123456789abcdef"), std::string::npos);
  }
  EXPECT_NE(to_hex(random_trace_id()), to_hex(random_trace_id()));
}

// A group's members get their ids from a sequence seeded per group: none
// is zero (no valid span id), none repeats within the group, and groups do
// not share their sequence.
TEST(Ids, MemberSpanIdsNeverRepeatWithinAGroupAndAreNeverZero) {
  detail::member_span_ids ids;
  std::unordered_set<std::uint64_t> seen;
  for (int i = 0; i < 200'000; ++i) {
    auto id = ids.next_bits();
    EXPECT_NE(id, 0u);
    EXPECT_TRUE(seen.insert(id).second) << "repeated after " << i;
  }
  detail::member_span_ids other;
  EXPECT_EQ(seen.count(other.next_bits()), 0u);
  auto first = detail::member_span_ids().next();
  EXPECT_TRUE(is_valid(first));
  EXPECT_NE(to_hex(first), to_hex(detail::member_span_ids().next()));
  // The one counter value that mixes to zero is stepped over.
  detail::member_span_ids onto_zero(0 - detail::member_span_ids::gamma);
  EXPECT_EQ(onto_zero.next_bits(), detail::member_span_ids(0).next_bits());
}

TEST(Traceparent, ParsesAndFormatsRoundTrip) {
  auto ctx = parse_traceparent(example, "rojo=00f067aa0ba902b7");
  ASSERT_TRUE(ctx);
  EXPECT_EQ(to_hex(ctx->trace), "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(to_hex(ctx->span), "00f067aa0ba902b7");
  EXPECT_TRUE(ctx->sampled());
  EXPECT_TRUE(ctx->remote);
  EXPECT_EQ(ctx->tracestate, "rojo=00f067aa0ba902b7");
  EXPECT_EQ(format_traceparent(*ctx), example);
}

TEST(Traceparent, RejectsMalformedHeaders) {
  for (const char* bad : {
         "",
         "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",       // no flags
         "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01",    // uppercase
         "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",    // version ff
         "00-00000000000000000000000000000000-00f067aa0ba902b7-01",    // zero trace id
         "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01",    // zero span id
         "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",  // v00 with extra
         "00_4bf92f3577b34da6a3ce929d0e0e4736_00f067aa0ba902b7_01",    // separators
         "00-4bf92f3577b34da6a3ce929d0e0e473g-00f067aa0ba902b7-01",    // not hex
         "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0",     // 54 characters
         "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-011",   // 56 characters
         "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",    // misplaced separator
         "00-4bf92f3577b34da6a3ce929d0e0e4736-00F067AA0BA902B7-01",    // uppercase span id
         "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0A",    // uppercase flags
         "0A-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",    // uppercase version
         " 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",   // leading space
         "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01 ",   // trailing space
         "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",   // later version, bad tail
         "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-ab", // ff even when longer
       })
    EXPECT_FALSE(parse_traceparent(bad)) << bad;
  // A future version is read by its first four fields.
  EXPECT_TRUE(parse_traceparent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-extra"));
}

TEST(Traceparent, KeepsFlagsAndFormatsUnsampled) {
  auto ctx = parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00");
  ASSERT_TRUE(ctx);
  EXPECT_FALSE(ctx->sampled());
  ctx->flags = 0x03; // an unknown flag bit is carried along, not lost
  EXPECT_EQ(format_traceparent(*ctx), "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-03");
}

TEST(Traceparent, FormatsWhatItParsesForRandomIds) {
  for (int i = 0; i < 50; ++i) {
    span_context ctx{random_trace_id(), random_span_id(), static_cast<std::uint8_t>(i & 1), {}, false};
    auto text = format_traceparent(ctx);
    EXPECT_EQ(text.size(), 55u);
    auto back = parse_traceparent(text);
    ASSERT_TRUE(back) << text;
    EXPECT_EQ(back->trace, ctx.trace);
    EXPECT_EQ(back->span, ctx.span);
    EXPECT_EQ(back->flags, ctx.flags);
  }
}

TEST(Tracestate, MalformedStateIsDroppedNotTheContext) {
  auto ctx = parse_traceparent(example, "=broken");
  ASSERT_TRUE(ctx);
  EXPECT_TRUE(ctx->tracestate.empty());
  std::string many;
  for (int i = 0; i < 33; ++i)
    many += (i ? "," : "") + std::string("k") + std::to_string(i) + "=v";
  EXPECT_FALSE(valid_tracestate(many));
  EXPECT_TRUE(valid_tracestate("a=1, b=2"));
  // Kept in canonical form: optional spaces and empty members go.
  EXPECT_EQ(parse_traceparent(example, " a=1 ,, b=2 ")->tracestate, "a=1,b=2");
}

} // namespace
} // namespace cafmcp::otel

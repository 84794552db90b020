// The W3C propagator over a map carrier: inject, extract, round trips.
#include <map>

#include <gtest/gtest.h>

#include "cafmcp/otel/propagator.hpp"

namespace cafmcp::otel {
namespace {

struct map_carrier : text_map_carrier {
  std::map<std::string, std::string, std::less<>> values;
  std::string_view get(std::string_view key) const override {
    auto it = values.find(key);
    return it == values.end() ? std::string_view() : std::string_view(it->second);
  }
  void set(std::string_view key, std::string_view value) override { values[std::string(key)] = value; }
};

TEST(Propagator, InjectThenExtractRoundTrips) {
  span_context ctx{random_trace_id(), random_span_id(), 1, "vendor=abc", false};
  map_carrier carrier;
  inject(ctx, carrier);
  EXPECT_EQ(carrier.values.at("traceparent"), format_traceparent(ctx));
  EXPECT_EQ(carrier.values.at("tracestate"), "vendor=abc");
  auto back = extract(carrier);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->trace, ctx.trace);
  EXPECT_EQ(back->span, ctx.span);
  EXPECT_TRUE(back->sampled());
  EXPECT_TRUE(back->remote); // what arrives from a carrier came from elsewhere
  EXPECT_EQ(back->tracestate, "vendor=abc");
}

TEST(Propagator, InjectsNothingForAnInvalidContext) {
  map_carrier carrier;
  inject(span_context{}, carrier);
  EXPECT_TRUE(carrier.values.empty());
  span_context no_state{random_trace_id(), random_span_id(), 0, {}, false};
  inject(no_state, carrier);
  EXPECT_EQ(carrier.values.count("traceparent"), 1u);
  EXPECT_EQ(carrier.values.count("tracestate"), 0u);
}

TEST(Propagator, ExtractRejectsMalformedParentsAndDropsOnlyABadState) {
  map_carrier carrier;
  EXPECT_FALSE(extract(carrier));
  carrier.values["traceparent"] = "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01";
  EXPECT_FALSE(extract(carrier));
  carrier.values["traceparent"] = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  carrier.values["tracestate"] = "a=1,a=2";
  auto ctx = extract(carrier);
  ASSERT_TRUE(ctx);
  EXPECT_TRUE(ctx->tracestate.empty());
}

} // namespace
} // namespace cafmcp::otel

// Sampling decisions.
#include <gtest/gtest.h>

#include "cafmcp/otel/sampler.hpp"

namespace cafmcp::otel {
namespace {

int sampled_of(const sampler& s, int n) {
  int hits = 0;
  for (int i = 0; i < n; ++i)
    hits += s.should_sample(nullptr, random_trace_id()) ? 1 : 0;
  return hits;
}

TEST(Sampler, ConstantsAndRatioExtremes) {
  EXPECT_EQ(sampled_of(*always_on(), 100), 100);
  EXPECT_EQ(sampled_of(*always_off(), 100), 0);
  EXPECT_EQ(sampled_of(*trace_id_ratio(0.0), 1000), 0);
  EXPECT_EQ(sampled_of(*trace_id_ratio(1.0), 1000), 1000);
}

TEST(Sampler, RatioDependsOnlyOnTheTraceId) {
  auto s = trace_id_ratio(0.5);
  for (int i = 0; i < 100; ++i) {
    auto t = random_trace_id();
    EXPECT_EQ(s->should_sample(nullptr, t), s->should_sample(nullptr, t));
  }
  int hits = sampled_of(*s, 10000);
  EXPECT_GT(hits, 4000); // binomial(10000, 0.5): far outside these only by a broken sampler
  EXPECT_LT(hits, 6000);
}

TEST(Sampler, ParentBasedFollowsTheParentsFlag) {
  auto s = parent_based(always_off());
  span_context parent{random_trace_id(), random_span_id(), 1, {}, true};
  EXPECT_TRUE(s->should_sample(&parent, parent.trace));
  parent.flags = 0;
  auto on = parent_based(always_on());
  EXPECT_FALSE(on->should_sample(&parent, parent.trace));
  EXPECT_TRUE(on->should_sample(nullptr, random_trace_id())); // roots: the root sampler
}

TEST(Sampler, NamesFromTheEnvironmentSpec) {
  EXPECT_EQ(sampler_from_name("traceidratio", "0.25")->description(), "TraceIdRatioBased{0.250000}");
  EXPECT_NE(sampler_from_name("parentbased_traceidratio", "0.1"), nullptr);
  EXPECT_EQ(sampler_from_name("nonsense", ""), nullptr);
}

} // namespace
} // namespace cafmcp::otel

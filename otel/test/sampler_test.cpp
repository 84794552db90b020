// Sampling decisions.
#include <cmath>

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
  EXPECT_EQ(sampled_of(*trace_id_ratio(-3.0), 100), 0); // clamped
  EXPECT_EQ(sampled_of(*trace_id_ratio(7.0), 100), 100);
  EXPECT_EQ(sampled_of(*trace_id_ratio(std::nan("")), 100), 100);
}

TEST(Sampler, RatioOfZeroNeverSamplesEvenTheLargestId) {
  trace_id max_id;
  max_id.fill(0xff);
  trace_id min_id{};
  min_id[15] = 1;
  EXPECT_FALSE(trace_id_ratio(0.0)->should_sample(nullptr, min_id));
  EXPECT_TRUE(trace_id_ratio(1.0)->should_sample(nullptr, max_id));
}

TEST(Sampler, RatioDependsOnlyOnTheTraceId) {
  auto s = trace_id_ratio(0.5);
  for (int i = 0; i < 100; ++i) {
    auto t = random_trace_id();
    EXPECT_EQ(s->should_sample(nullptr, t), s->should_sample(nullptr, t));
    EXPECT_EQ(s->should_sample(nullptr, t), trace_id_ratio(0.5)->should_sample(nullptr, t));
  }
  int hits = sampled_of(*s, 10000);
  EXPECT_GT(hits, 4000); // binomial(10000, 0.5): far outside these only by a broken sampler
  EXPECT_LT(hits, 6000);
}

TEST(Sampler, ALowerRatioSamplesASubsetOfAHigherOne) {
  // Every process of a trace must agree, whatever ratio each one runs at.
  auto low = trace_id_ratio(0.1), high = trace_id_ratio(0.6);
  for (int i = 0; i < 2000; ++i) {
    auto t = random_trace_id();
    if (low->should_sample(nullptr, t)) {
      EXPECT_TRUE(high->should_sample(nullptr, t));
    }
  }
}

TEST(Sampler, ParentBasedFollowsTheParentsFlag) {
  auto off = parent_based(always_off());
  span_context parent{random_trace_id(), random_span_id(), 1, {}, true};
  EXPECT_TRUE(off->should_sample(&parent, parent.trace));
  EXPECT_FALSE(off->should_sample(nullptr, random_trace_id())); // roots: the root sampler
  parent.flags = 0;
  auto on = parent_based(always_on());
  EXPECT_FALSE(on->should_sample(&parent, parent.trace));
  EXPECT_TRUE(on->should_sample(nullptr, random_trace_id()));
  auto ratio = parent_based(trace_id_ratio(0.0));
  parent.flags = 1;
  EXPECT_TRUE(ratio->should_sample(&parent, parent.trace)); // the parent wins over the ratio
  span_context invalid;                                     // no valid parent: a root after all
  EXPECT_FALSE(ratio->should_sample(&invalid, random_trace_id()));
}

TEST(Sampler, TellsWhatItCanSkip) {
  EXPECT_TRUE(always_off()->never_samples());
  EXPECT_FALSE(always_on()->never_samples());
  EXPECT_FALSE(parent_based(always_off())->never_samples()); // a sampled parent still counts
  EXPECT_TRUE(parent_based(always_on())->follows_parent());
  EXPECT_FALSE(trace_id_ratio(0.5)->follows_parent());
}

TEST(Sampler, NamesFromTheEnvironmentSpec) {
  EXPECT_EQ(sampler_from_name("traceidratio", "0.25")->description(), "TraceIdRatioBased{0.250000}");
  EXPECT_EQ(sampler_from_name("traceidratio", "")->description(), "TraceIdRatioBased{1.000000}");
  EXPECT_EQ(sampler_from_name("traceidratio", "half")->description(), "TraceIdRatioBased{1.000000}");
  EXPECT_EQ(sampler_from_name("traceidratio", "0.5x")->description(), "TraceIdRatioBased{1.000000}");
  EXPECT_EQ(sampler_from_name("traceidratio", "2")->description(), "TraceIdRatioBased{1.000000}");
  EXPECT_EQ(sampler_from_name("parentbased_traceidratio", "0.1")->description(),
            "ParentBased{root=TraceIdRatioBased{0.100000}}");
  EXPECT_EQ(sampler_from_name("parentbased_always_off", "")->description(),
            "ParentBased{root=AlwaysOffSampler}");
  EXPECT_EQ(sampler_from_name("always_on", "")->description(), "AlwaysOnSampler");
  EXPECT_EQ(sampler_from_name("nonsense", ""), nullptr);
}

} // namespace
} // namespace cafmcp::otel

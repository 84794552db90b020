// When the stdio reader spins before it blocks (transport/spin_policy.hpp):
// on while spins find the next line or the client is merely slow, off once
// spins keep running out just before the line comes, back on after a probe
// that finds it.
#include <gtest/gtest.h>

#include "transport/spin_policy.hpp"

namespace cafmcp::transport {
namespace {

using namespace std::chrono_literals;

constexpr auto budget = std::chrono::duration_cast<spin_policy::duration>(50us);
constexpr auto short_wait = std::chrono::duration_cast<spin_policy::duration>(5us);  // the client was held up
constexpr auto long_wait = std::chrono::duration_cast<spin_policy::duration>(900us); // the client was slow

TEST(SpinPolicy, NoBudgetNeverSpins) {
  spin_policy p(spin_policy::duration::zero());
  for (int i = 0; i < 200; ++i)
    EXPECT_EQ(p.next(), spin_policy::duration::zero());
}

TEST(SpinPolicy, SpinsWhileSpinsFindTheLine) {
  spin_policy p(budget);
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(p.next(), budget);
    p.found();
  }
  EXPECT_TRUE(p.spinning());
}

TEST(SpinPolicy, ASlowClientKeepsTheSpin) {
  spin_policy p(budget);
  for (int i = 0; i < 100; ++i) {
    ASSERT_EQ(p.next(), budget);
    p.missed(long_wait);
  }
  EXPECT_TRUE(p.spinning());
}

TEST(SpinPolicy, RareShortWaitsAmongFoundLinesKeepTheSpin) {
  spin_policy p(budget);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_EQ(p.next(), budget) << "read " << i;
    if (i % 10 == 9)
      p.missed(short_wait);
    else
      p.found();
  }
}

// One read in five held up by the spin: it stops, stays off between
// probes (a probe that runs out decides nothing), and a probe that finds
// the line turns it back on.
TEST(SpinPolicy, FrequentShortWaitsStopItUntilAProbeFindsTheLine) {
  spin_policy p(budget, 64);
  int reads = 0;
  while (p.spinning() && reads < 1000) {
    ASSERT_EQ(p.next(), budget);
    if (reads++ % 5 == 4)
      p.missed(short_wait);
    else
      p.found();
  }
  ASSERT_FALSE(p.spinning());
  EXPECT_LT(reads, 100);
  for (int probe = 0; probe < 3; ++probe) {
    for (int i = 0; i < 63; ++i)
      ASSERT_EQ(p.next(), spin_policy::duration::zero());
    ASSERT_EQ(p.next(), budget); // the probe
    p.missed(short_wait);
    EXPECT_FALSE(p.spinning());
  }
  for (int i = 0; i < 63; ++i)
    ASSERT_EQ(p.next(), spin_policy::duration::zero());
  ASSERT_EQ(p.next(), budget);
  p.found();
  EXPECT_TRUE(p.spinning());
  EXPECT_EQ(p.next(), budget);
}

} // namespace
} // namespace cafmcp::transport

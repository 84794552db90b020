// usable_cpus() counts the calling thread's affinity mask, not the machine:
// a thread held to one CPU (as `taskset -c 0` holds a process) sees 1.
#include <algorithm>
#include <thread>

#include <gtest/gtest.h>
#include <sched.h>

#include "foundation/usable_cpus.hpp"
#include "held_to_one_cpu.hpp"

namespace cafmcp::test {
namespace {

TEST(UsableCpus, AThreadHeldToOneCpuSeesOne) {
  held_to_one_cpu here;
  EXPECT_EQ(detail::usable_cpus(), 1u);
  std::size_t in_a_thread_it_started = 0;
  std::thread([&] { in_a_thread_it_started = detail::usable_cpus(); }).join();
  EXPECT_EQ(in_a_thread_it_started, 1u);
}

TEST(UsableCpus, AThreadSeesEveryCpuOfItsMaskAndNoMore) {
  cpu_set_t mine;
  ASSERT_EQ(::sched_getaffinity(0, sizeof mine, &mine), 0);
  EXPECT_EQ(detail::usable_cpus(), static_cast<std::size_t>(CPU_COUNT(&mine)));
  EXPECT_LE(detail::usable_cpus(), std::max(1u, std::thread::hardware_concurrency()));
  { held_to_one_cpu here; } // and back: the mask it had is counted again
  EXPECT_EQ(detail::usable_cpus(), static_cast<std::size_t>(CPU_COUNT(&mine)));
}

} // namespace
} // namespace cafmcp::test

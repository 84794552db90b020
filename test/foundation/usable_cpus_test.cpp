// usable_cpus() counts the calling thread's affinity mask, not the machine:
// a thread held to one CPU (as `taskset -c 0` holds a process) sees 1.
#include <thread>

#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include "foundation/usable_cpus.hpp"

namespace {

std::size_t count_on(const cpu_set_t& mask) {
  std::size_t seen = 0;
  std::thread t([&] {
    EXPECT_EQ(::pthread_setaffinity_np(::pthread_self(), sizeof mask, &mask), 0);
    seen = cafmcp::detail::usable_cpus();
  });
  t.join();
  return seen;
}

} // namespace

TEST(UsableCpus, AThreadHeldToOneCpuSeesOne) {
  cpu_set_t mine;
  ASSERT_EQ(::sched_getaffinity(0, sizeof mine, &mine), 0);
  int first = 0;
  while (!CPU_ISSET(first, &mine))
    ++first;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(first, &one);
  EXPECT_EQ(count_on(one), 1u);
}

TEST(UsableCpus, AThreadSeesEveryCpuOfItsMaskAndNoMore) {
  cpu_set_t mine;
  ASSERT_EQ(::sched_getaffinity(0, sizeof mine, &mine), 0);
  EXPECT_EQ(count_on(mine), static_cast<std::size_t>(CPU_COUNT(&mine)));
  EXPECT_LE(count_on(mine), std::max(1u, std::thread::hardware_concurrency()));
}

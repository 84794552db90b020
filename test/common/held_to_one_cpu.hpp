#pragma once
// Holds the calling thread, and the threads it starts while held (they
// inherit its mask), to the first CPU it may run on, as `taskset -c` holds
// a process and its children; puts the mask back when it goes.
#include <gtest/gtest.h>
#include <sched.h>

namespace cafmcp::test {

class held_to_one_cpu {
public:
  held_to_one_cpu() {
    EXPECT_EQ(::sched_getaffinity(0, sizeof before_, &before_), 0);
    int first = 0;
    while (!CPU_ISSET(first, &before_))
      ++first;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(first, &one);
    EXPECT_EQ(::sched_setaffinity(0, sizeof one, &one), 0);
  }
  ~held_to_one_cpu() { ::sched_setaffinity(0, sizeof before_, &before_); }
  held_to_one_cpu(const held_to_one_cpu&) = delete;
  held_to_one_cpu& operator=(const held_to_one_cpu&) = delete;

  /// The mask the thread had before.
  const cpu_set_t& before() const { return before_; }

private:
  cpu_set_t before_;
};

} // namespace cafmcp::test

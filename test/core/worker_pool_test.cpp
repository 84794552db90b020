// The handler-call pool: a busy call never holds back another, threads are
// reused when idle, and idle threads end by themselves.
#include <chrono>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "actors/worker_pool.hpp"

using cafmcp::actors::worker_pool;
using namespace std::chrono_literals;

TEST(WorkerPool, ABlockedCallDoesNotHoldBackTheNext) {
  worker_pool pool;
  std::promise<void> release;
  auto released = release.get_future().share();
  std::promise<void> second_ran;
  pool.run([released] { released.wait(); });
  pool.run([&] { second_ran.set_value(); });
  EXPECT_EQ(second_ran.get_future().wait_for(5s), std::future_status::ready);
  EXPECT_EQ(pool.threads(), 2u);
  release.set_value();
}

// Whether a call finds its predecessor's thread already waiting is up to the
// scheduler; once that thread waits, the next call must be given to it.
TEST(WorkerPool, AnIdleThreadTakesTheNextCall) {
  worker_pool pool;
  for (int i = 0; i < 100; ++i) {
    std::promise<void> done;
    pool.run([&] { done.set_value(); });
    ASSERT_EQ(done.get_future().wait_for(5s), std::future_status::ready);
    auto deadline = std::chrono::steady_clock::now() + 5s;
    while (pool.idle_threads() == 0 && std::chrono::steady_clock::now() < deadline)
      std::this_thread::yield(); // polling a condition, bounded; nothing is timed
    ASSERT_EQ(pool.idle_threads(), 1u);
  }
  EXPECT_EQ(pool.threads(), 1u); // one thread for a hundred calls, not a thread per call
}

TEST(WorkerPool, IdleThreadsEnd) {
  worker_pool pool(20ms);
  std::promise<void> done;
  pool.run([&] { done.set_value(); });
  ASSERT_EQ(done.get_future().wait_for(5s), std::future_status::ready);
  auto deadline = std::chrono::steady_clock::now() + 5s;
  while (pool.threads() != 0 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield(); // polling a condition, bounded; nothing is timed
  EXPECT_EQ(pool.threads(), 0u);
}

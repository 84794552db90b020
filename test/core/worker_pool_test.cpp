// The handler-call pool: a busy call never holds back another, threads are
// reused when idle, and idle threads end by themselves.
#include <chrono>
#include <future>

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

TEST(WorkerPool, AnIdleThreadTakesTheNextCall) {
  worker_pool pool;
  for (int i = 0; i < 100; ++i) {
    std::promise<void> done;
    pool.run([&] { done.set_value(); });
    ASSERT_EQ(done.get_future().wait_for(5s), std::future_status::ready);
  }
  // A call may arrive before the previous one's thread is back to waiting
  // (then one more thread starts, and stays idle for the next ones): a few
  // threads for a hundred calls, where a thread per call would be 100.
  EXPECT_LE(pool.threads(), 4u);
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

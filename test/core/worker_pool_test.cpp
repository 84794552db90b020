// The handler-call pool: a busy call never holds back another, threads are
// reused when idle, and idle threads end by themselves.
#include <atomic>
#include <chrono>
#include <future>
#include <memory>
#include <thread>
#include <vector>

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

// Calls handed over together each get a thread of their own, though the pool
// wakes one thread at a time (the woken one wakes the next): each burst's
// calls only finish once all of them run at once. Bursts follow one another
// as threads finish theirs, so a woken thread can find its call taken by a
// thread just done with another; the next call must still wake someone.
// Threads never idle out here (an hour): a call left without a wake-up
// would wait for a thread to come by, which no thread of a burst does
// before the whole burst runs.
TEST(WorkerPool, EveryCallOfABurstRunsAtOnceWhateverTheThreadsWereDoing) {
  worker_pool pool(std::chrono::hours(1));
  for (int round = 0; round < 400; ++round) {
    const int n = 1 + round % 4;
    auto started = std::make_shared<std::atomic<int>>(0);
    std::vector<std::future<bool>> all_ran;
    for (int i = 0; i < n; ++i) {
      auto ran = std::make_shared<std::promise<bool>>();
      all_ran.push_back(ran->get_future());
      pool.run([started, ran, n] {
        started->fetch_add(1);
        auto deadline = std::chrono::steady_clock::now() + 5s;
        while (started->load() < n && std::chrono::steady_clock::now() < deadline)
          std::this_thread::yield(); // until the whole burst runs at once, bounded; nothing is timed
        ran->set_value(started->load() == n);
      });
    }
    for (auto& f : all_ran)
      ASSERT_TRUE(f.get()) << "round " << round << ": a call of " << n << " had no thread while the others ran";
  }
}

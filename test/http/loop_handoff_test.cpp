// The batch hand-off to the event loop: one post per batch, order kept,
// and after close() nothing more reaches the loop (a session an actor
// thread still sends to while the transport goes away).
#include <memory>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "streamable_http/loop_handoff.hpp"

namespace cafmcp::http {
namespace {

std::vector<int> ran; // what the loop ran, in order (tests run one at a time)

void record(int& i) { ran.push_back(i); }

TEST(LoopHandoff, ABatchIsOnePostAndRunsInOrder) {
  ran.clear();
  boost::asio::io_context ioc;
  loop_handoff<int> h(ioc, record);
  for (int i = 0; i < 5; ++i)
    EXPECT_TRUE(h.push(i));
  EXPECT_EQ(ioc.poll(), 1u); // one handler ran the whole batch
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, 3, 4}));
  EXPECT_TRUE(h.push(5)); // a new batch: a new post
  ioc.restart();          // poll() stopped the context when it ran out of work
  EXPECT_EQ(ioc.poll(), 1u);
  EXPECT_EQ(ran.back(), 5);
}

// Items that point somewhere (connections, sessions) have their targets
// prefetched a few items ahead: a batch longer than that reach still runs
// each item once, in order, the last ones (nothing ahead of them) included.
std::vector<int> ran_targets;
void record_target(std::shared_ptr<int>& p) {
  ran_targets.push_back(*p);
  p.reset();
}

TEST(LoopHandoff, ABatchOfPointersPastThePrefetchReachRunsWholeAndInOrder) {
  ran_targets.clear();
  boost::asio::io_context ioc;
  loop_handoff<std::shared_ptr<int>, loop_only_lock> h(ioc, record_target);
  const int n = static_cast<int>(3 * prefetch_distance + 1);
  std::vector<int> expected;
  for (int i = 0; i < n; ++i) {
    h.push(std::make_shared<int>(i));
    expected.push_back(i);
  }
  EXPECT_EQ(ioc.poll(), 1u);
  EXPECT_EQ(ran_targets, expected);
}

// The batch's end runs once, after its last item and before anything an
// item pushed (a batch of its own, with its own end).
TEST(LoopHandoff, ABatchsEndRunsOnceAfterItsItems) {
  ran.clear();
  boost::asio::io_context ioc;
  int end_mark = -1;
  loop_handoff<int, loop_only_lock> h(
    ioc, record, [](void* context) { ran.push_back(*static_cast<int*>(context)); }, &end_mark);
  for (int i = 0; i < 3; ++i)
    h.push(i);
  EXPECT_EQ(ioc.poll(), 1u);
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, -1}));
  h.push(7);
  ioc.restart();
  ioc.poll();
  EXPECT_EQ(ran, (std::vector<int>{0, 1, 2, -1, 7, -1}));
}

TEST(LoopHandoff, AfterCloseNothingQueuedRunsAndPushesAreRefused) {
  ran.clear();
  boost::asio::io_context ioc;
  loop_handoff<int> h(ioc, record);
  EXPECT_TRUE(h.push(1));
  h.close();
  EXPECT_FALSE(h.push(2));
  ioc.poll(); // the batch's handler finds it emptied
  EXPECT_TRUE(ran.empty());
}

TEST(LoopHandoff, ItemsFromManyThreadsKeepEachThreadsOrder) {
  ran.clear();
  boost::asio::io_context ioc;
  loop_handoff<int> h(ioc, record);
  constexpr int threads = 4, each = 2000;
  std::vector<std::thread> pushers;
  for (int t = 0; t < threads; ++t)
    pushers.emplace_back([&h, t] {
      for (int i = 0; i < each; ++i)
        h.push(t * each + i);
    });
  for (auto& p : pushers)
    p.join();
  ioc.poll();
  ASSERT_EQ(ran.size(), static_cast<std::size_t>(threads * each));
  std::vector<int> next(threads, 0);
  for (int v : ran) {
    int t = v / each;
    ASSERT_EQ(v % each, next[t]) << "thread " << t << "'s items out of order";
    ++next[t];
  }
}

} // namespace
} // namespace cafmcp::http

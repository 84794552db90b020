// The stdio transport's output on a real pipe (transport/line_writer.hpp):
// a line goes out as it is sent, unless a hold gathers lines into one write
// (nothing reaches the pipe before the release);
// held lines from any thread keep their order, and a batch larger than the
// pipe still arrives whole once the reader reads.
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>
#include <poll.h>
#include <unistd.h>

#include "transport/line_writer.hpp"

namespace cafmcp::transport {
namespace {

struct pipe_pair {
  int fds[2];
  pipe_pair() { EXPECT_EQ(::pipe(fds), 0); }
  ~pipe_pair() {
    ::close(fds[0]);
    ::close(fds[1]);
  }
  /// Whether a byte can be read right now, without waiting.
  bool readable_now() const {
    pollfd p{fds[0], POLLIN, 0};
    return ::poll(&p, 1, 0) == 1;
  }
  /// Reads until `n` lines came, the pipe ended or nothing more came for
  /// ten seconds, and returns them.
  std::vector<std::string> read_lines(std::size_t n) {
    std::vector<std::string> lines;
    std::string pending;
    char buf[4096];
    while (lines.size() < n) {
      pollfd ready{fds[0], POLLIN, 0};
      if (::poll(&ready, 1, 10'000) != 1)
        break;
      auto got = ::read(fds[0], buf, sizeof buf);
      if (got <= 0)
        break;
      pending.append(buf, static_cast<std::size_t>(got));
      for (auto nl = pending.find('\n'); nl != std::string::npos; nl = pending.find('\n')) {
        lines.push_back(pending.substr(0, nl));
        pending.erase(0, nl + 1);
      }
    }
    return lines;
  }
};

frame line(std::string text) { return std::make_shared<const std::string>(std::move(text)); }

TEST(LineWriter, HeldLinesFromEveryThreadWaitForReleaseAndKeepTheirOrder) {
  pipe_pair p;
  line_writer w(p.fds[1], 16);
  w.hold();
  ASSERT_TRUE(w.send(line("answer"), {}));
  std::thread other([&] { EXPECT_TRUE(w.send(line("from another thread"), {})); });
  other.join();
  ASSERT_TRUE(w.send(line("notification"), {}));
  EXPECT_FALSE(p.readable_now()); // nothing is written while held, by the sender or the writer thread
  w.release();
  EXPECT_EQ(p.read_lines(3), (std::vector<std::string>{"answer", "from another thread", "notification"}));
  // After the hold, lines go out as they are sent again.
  ASSERT_TRUE(w.send(line("after"), {}));
  EXPECT_EQ(p.read_lines(1), std::vector<std::string>{"after"});
  w.drain_and_stop(std::chrono::milliseconds(0));
}

TEST(LineWriter, AHeldBatchLargerThanThePipeArrivesWholeAndInOrder) {
  pipe_pair p;
  // 300 lines of ~1 KiB: more than a pipe's 64 KiB and more than one
  // writev's batch, so the release writes part and the writer thread the rest.
  constexpr int n = 300;
  line_writer w(p.fds[1], n);
  std::vector<std::string> sent;
  w.hold();
  for (int i = 0; i < n; ++i) {
    sent.push_back(std::to_string(i) + ":" + std::string(1000 + i % 7, static_cast<char>('a' + i % 26)));
    ASSERT_TRUE(w.send(line(sent.back()), {}));
  }
  w.release();
  EXPECT_EQ(p.read_lines(n), sent);
  w.drain_and_stop(std::chrono::milliseconds(0));
}

TEST(LineWriter, AHoldNeverFillsTheQueue) {
  // 1,000 short lines under one hold, with room for 100 queued: they go
  // out in batches while held, as unheld ones would have gone one by one.
  pipe_pair p;
  line_writer w(p.fds[1], 100);
  std::vector<std::string> sent;
  w.hold();
  for (int i = 0; i < 1000; ++i) {
    sent.push_back(std::to_string(i));
    ASSERT_TRUE(w.send(line(sent.back()), {})) << i;
  }
  w.release();
  EXPECT_EQ(p.read_lines(sent.size()), sent);
  w.drain_and_stop(std::chrono::milliseconds(0));
}

TEST(LineWriter, AFullQueueRefusesTheLineEvenWhileHeld) {
  pipe_pair p;
  line_writer w(p.fds[1], 2);
  w.hold();
  EXPECT_TRUE(w.send(line("1"), {}));
  EXPECT_TRUE(w.send(line("2"), {}));
  EXPECT_FALSE(w.send(line("3"), {})); // the bound holds: the session ends the connection
  w.release();
  EXPECT_EQ(p.read_lines(2), (std::vector<std::string>{"1", "2"}));
  w.drain_and_stop(std::chrono::milliseconds(0));
}

} // namespace
} // namespace cafmcp::transport

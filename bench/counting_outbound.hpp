#pragma once
// A transport end for benchmarks: counts what it is handed and lets a
// thread wait for a total, without parsing (so the figures measure cafmcp,
// not the benchmark).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>

#include "cafmcp/transport.hpp"

namespace cafmcp::bench {

struct delivery_counter {
  std::atomic<std::uint64_t> frames{0};
  std::mutex mtx;
  std::condition_variable cv;
  /// Waits until `n` frames arrived; false at the deadline.
  bool wait_for(std::uint64_t n, std::chrono::seconds limit = std::chrono::seconds(60)) {
    std::unique_lock<std::mutex> lock(mtx);
    return cv.wait_for(lock, limit, [&] { return frames.load() >= n; });
  }
};

class counting_outbound : public outbound {
public:
  explicit counting_outbound(delivery_counter& c) : counter_(c) {}
  bool send(frame message, const routing&) override {
    auto n = counter_.frames.fetch_add(1) + 1;
    if ((n & 1023) == 0 || n == target_.load()) {
      std::lock_guard<std::mutex> g(counter_.mtx);
      counter_.cv.notify_all();
    }
    return true;
  }
  void close() override {}
  static inline std::atomic<std::uint64_t> target_{0}; // wake exactly at the total

private:
  delivery_counter& counter_;
};

/// Like a real transport: one write(2) per delivery into a socket whose
/// other end a drain thread reads (one syscall per delivery, as stdio and
/// SSE do), counting at the far end.
class socket_outbound : public outbound {
public:
  socket_outbound(int fd, delivery_counter& c) : fd_(fd), counter_(c) {}
  bool send(frame message, const routing&) override;
  void close() override {}

private:
  int fd_;
  delivery_counter& counter_;
};

} // namespace cafmcp::bench

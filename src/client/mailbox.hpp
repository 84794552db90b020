#pragma once
// A thread that owns some state and runs the tasks posted to it in order:
// the client's actor, without an actor system. It also wakes at the time
// the owner's tick asks for (request deadlines, reload retries).
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <thread>

namespace cafmcp::client_core {

class mailbox {
public:
  using clock = std::chrono::steady_clock;
  /// Called after every batch of tasks and at the deadline it returned last.
  using tick = std::function<std::optional<clock::time_point>(clock::time_point now)>;

  explicit mailbox(tick on_tick = nullptr) : on_tick_(std::move(on_tick)), thread_([this] { run(); }) {}
  ~mailbox() { stop(); }

  /// False once stopped (the task is dropped).
  bool post(std::function<void()> task) {
    std::lock_guard<std::mutex> g(mtx_);
    if (stopping_)
      return false;
    tasks_.push_back(std::move(task));
    cv_.notify_one();
    return true;
  }
  /// Runs what is queued, then ends the thread. Not from the thread itself.
  void stop() {
    {
      std::lock_guard<std::mutex> g(mtx_);
      stopping_ = true;
      cv_.notify_one();
    }
    if (thread_.joinable())
      thread_.join();
  }
  bool on_own_thread() const { return std::this_thread::get_id() == thread_.get_id(); }

private:
  void run() {
    std::optional<clock::time_point> wake;
    for (;;) {
      std::deque<std::function<void()>> batch;
      {
        std::unique_lock<std::mutex> g(mtx_);
        auto ready = [this] { return stopping_ || !tasks_.empty(); };
        if (wake)
          cv_.wait_until(g, *wake, ready);
        else
          cv_.wait(g, ready);
        batch.swap(tasks_);
        if (batch.empty() && stopping_)
          return;
      }
      for (auto& t : batch)
        t();
      if (on_tick_)
        wake = on_tick_(clock::now());
    }
  }

  tick on_tick_;
  std::mutex mtx_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::thread thread_; // last: starts once the rest exists
};

} // namespace cafmcp::client_core

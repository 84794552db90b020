#pragma once
// Threads for handler calls. A call runs on an idle thread when there is
// one, else on a new thread: never queued behind a busy (maybe blocked)
// handler, as with a thread per call, but without creating and destroying a
// thread for every call (perf: thread start and exit were the largest cost
// of a tools/call). A thread idle for `idle_exit` ends. Calls handed over
// together wake one thread, which wakes the next (worker_pool.cpp's
// take_call): the caller, often an event loop, pays one wake-up a burst.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>

namespace cafmcp::actors {

class worker_pool {
public:
  explicit worker_pool(std::chrono::milliseconds idle_exit = std::chrono::seconds(2));
  ~worker_pool(); // idle threads end at once (waited for, up to 1 s); busy ones after their call
  worker_pool(const worker_pool&) = delete;
  worker_pool& operator=(const worker_pool&) = delete;

  void run(std::function<void()> call);
  std::size_t threads() const;
  /// Threads waiting for a call: the next call goes to one of them.
  std::size_t idle_threads() const;
  /// Threads running a call now.
  std::size_t busy_threads() const;
  /// Returns once no call is queued or running (calls that start calls are
  /// waited for too). The pool's state is shared with its threads, so the
  /// waiter never destroys what a finishing thread still touches.
  void wait_idle() const;

  struct state;

private:
  std::shared_ptr<state> st_;
};

} // namespace cafmcp::actors

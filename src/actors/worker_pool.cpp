#include "actors/worker_pool.hpp"

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

#include <openssl/crypto.h>

namespace cafmcp::actors {

struct worker_pool::state {
  std::mutex m;
  std::condition_variable wake;
  std::condition_variable finished;        // a call ended (wait_idle)
  std::deque<std::function<void()>> calls; // handed over, not yet taken by a thread
  std::size_t idle = 0;
  std::size_t running = 0; // calls taken and not yet over
  bool waking = false;     // an idle thread was woken and has not yet looked at `calls`
  std::size_t threads = 0;
  bool stopping = false;
  std::chrono::milliseconds idle_exit;
};

namespace {

// Takes the next call, handing the rest on: one woken thread at a time.
// Whoever queues a call wakes an idle thread only when none is on its way
// (`waking`); the thread that wakes takes one call and, if more wait, wakes
// the next before it runs its own. So the calls a loop hands over in one
// turn cost that loop one wake-up (a futex syscall and the IPI behind it:
// 14% of the server's samples, the loop the busiest thread, 16 clients of a
// tool on a handler thread), the other wake-ups are made by handler threads
// in parallel with it, and a thread that finishes while calls wait takes
// one without being woken at all. No call waits behind a running one: the
// hand-on comes before the taker's own call. Cost: a burst of n calls
// starts over n wake-ups in a row rather than at once.
std::function<void()> take_call(worker_pool::state& st, bool& wake_next) { // under st.m
  auto call = std::move(st.calls.front());
  st.calls.pop_front();
  ++st.running;
  wake_next = !st.calls.empty() && st.idle > 0 && !st.waking;
  if (wake_next)
    st.waking = true;
  return call;
}

void serve(std::shared_ptr<worker_pool::state> st) {
  std::unique_lock<std::mutex> lock(st->m);
  for (;;) {
    if (st->calls.empty()) {
      ++st->idle;
      // Every look at `calls` (on entry, and each time this thread wakes,
      // woken or not) clears `waking`: once the woken thread looked, the
      // next call must wake again. A look by another thread clears it too,
      // which at worst wakes one thread more; left set after the woken
      // thread found nothing and slept on, it would strand the next call
      // until a thread came by (a finished call, or idle_exit).
      bool got = st->wake.wait_for(lock, st->idle_exit, [&] {
        st->waking = false;
        return !st->calls.empty() || st->stopping;
      });
      --st->idle;
      if (!got || st->calls.empty())
        break; // idle too long, or the pool is going away
    }
    bool wake_next = false;
    auto call = take_call(*st, wake_next);
    lock.unlock();
    if (wake_next)
      st->wake.notify_one();
    call();
    call = nullptr; // whatever it captured goes before the thread waits again
    lock.lock();
    if (--st->running == 0 && st->calls.empty())
      st->finished.notify_all();
  }
  // OpenSSL keeps state per thread that used it (a handler that sealed its
  // request state or checked a token: the error queue, 904 bytes), freed by
  // its own thread-exit hook, which a process already exiting may have
  // removed: LeakSanitizer then reported it, in 12 of 150 runs of one test.
  // Freed here, while the pool still counts this thread (the destructor
  // waits for that).
  lock.unlock();
  OPENSSL_thread_stop();
  lock.lock();
  --st->threads;
  st->finished.notify_all();
}

} // namespace

worker_pool::worker_pool(std::chrono::milliseconds idle_exit) : st_(std::make_shared<state>()) {
  st_->idle_exit = idle_exit;
}

worker_pool::~worker_pool() {
  std::unique_lock<std::mutex> lock(st_->m);
  st_->stopping = true;
  st_->wake.notify_all();
  // Idle threads leave at once; wait for them (bounded), so that none is
  // still on its way out when the process ends. A thread inside a call (a
  // handler that may never return, or this very thread, if the pool's last
  // owner let go in a call) is not waited for.
  st_->finished.wait_for(lock, std::chrono::seconds(1), [&] { return st_->threads == st_->running; });
}

void worker_pool::run(std::function<void()> call) {
  std::unique_lock<std::mutex> lock(st_->m);
  st_->calls.push_back(std::move(call));
  if (st_->idle >= st_->calls.size()) { // an idle thread is free to take it
    if (st_->waking)
      return; // one is on its way, and hands on what it finds (take_call)
    st_->waking = true;
    lock.unlock(); // woken, it takes the lock at once: not while we hold it
    st_->wake.notify_one();
    return;
  }
  ++st_->threads;
  lock.unlock();
  std::thread(serve, st_).detach(); // it holds the state; nothing waits for it but its calls
}

void worker_pool::wait_idle() const {
  std::unique_lock<std::mutex> lock(st_->m);
  st_->finished.wait(lock, [&] { return st_->calls.empty() && st_->running == 0; });
}

std::size_t worker_pool::threads() const {
  std::lock_guard<std::mutex> lock(st_->m);
  return st_->threads;
}

std::size_t worker_pool::idle_threads() const {
  std::lock_guard<std::mutex> lock(st_->m);
  return st_->idle;
}

std::size_t worker_pool::busy_threads() const {
  std::lock_guard<std::mutex> lock(st_->m); // both counts at one moment
  return st_->threads - st_->idle;
}

} // namespace cafmcp::actors

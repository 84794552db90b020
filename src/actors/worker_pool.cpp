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
  std::size_t threads = 0;
  bool stopping = false;
  std::chrono::milliseconds idle_exit;
};

namespace {

void serve(std::shared_ptr<worker_pool::state> st) {
  std::unique_lock<std::mutex> lock(st->m);
  for (;;) {
    if (st->calls.empty()) {
      ++st->idle;
      bool got = st->wake.wait_for(lock, st->idle_exit, [&] { return !st->calls.empty() || st->stopping; });
      --st->idle;
      if (!got || st->calls.empty())
        break; // idle too long, or the pool is going away
    }
    auto call = std::move(st->calls.front());
    st->calls.pop_front();
    ++st->running;
    lock.unlock();
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
    lock.unlock();                      // woken, it takes the lock at once: not while we hold it
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

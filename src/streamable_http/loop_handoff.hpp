#pragma once
// Work handed to the event loop in batches: the first item of a batch posts
// one handler, later items only join the batch, and the handler takes the
// whole batch in one swap. A broadcast to N sessions then costs the loop one
// post (one allocation, one scheduler lock, at most one wake-up) instead of
// N, and items keep the order they were handed in. No timer: a lone item
// runs on the loop's very next step.
#include <atomic>
#include <memory>
#include <mutex>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include "foundation/prefetch.hpp"

namespace cafmcp::http {

/// For batches filled on the loop thread only: no lock is needed.
struct loop_only_lock {
  void lock() {}
  void unlock() {}
};

/// A batch's items reach their targets cold when there are thousands (a
/// broadcast's writes, its frames for each session): while item i runs,
/// item i + k asks for its target's lines (far) and item i + k/2 for what
/// the target points to, now that the target is in (near). Overloaded,
/// for argument-dependent lookup, by the items that have such targets.
template <class T>
void prefetch_far(const std::shared_ptr<T>& target) noexcept {
  prefetch_lines(target.get(), 2);
}
template <class Item>
void prefetch_far(const Item&) noexcept {}
template <class Item>
void prefetch_near(const Item&) noexcept {}

/// `Lock`: std::mutex when any thread may push (actor threads hand frames
/// to sessions); loop_only_lock when only the loop does.
template <class Item, class Lock = std::mutex>
class loop_handoff {
public:
  using run_fn = void (*)(Item&);
  /// Runs on the loop once a batch's items have run (`context` passed):
  /// what they started together ends together (the due writes of
  /// connection_loop go to the kernel in one submission).
  using batch_end_fn = void (*)(void* context);
  loop_handoff(boost::asio::io_context& ioc, run_fn run, batch_end_fn batch_end = nullptr,
               void* context = nullptr)
    : ioc_(ioc), run_(run), batch_end_(batch_end), context_(context) {}

  /// False once closed: the item is dropped.
  bool push(Item item) {
    std::lock_guard<Lock> g(lock_);
    if (closed_)
      return false;
    bool first = items_.empty();
    items_.push_back(std::move(item));
    waiting_.store(true, std::memory_order_release);
    if (first) // under the lock: close() cannot slip in between
      boost::asio::post(ioc_, [this] { drain(); });
    return true;
  }

  /// True when called on the loop's own thread, outside a batch, with
  /// nothing waiting: an item run now instead of pushed runs exactly where
  /// the loop would have run it (nothing is behind, nothing is passed), and
  /// costs no hand-off. (An actor run by the loop itself, the notifier of
  /// a broadcast, delivers that way.) An item pushed by another thread after
  /// this answered is behind it, as if pushed later. No lock: it is asked
  /// once per delivery, where a lock and an unlock were two atomic
  /// operations (1,985 -> 1,937 instructions per delivery, callgrind, 200
  /// sessions); the flags it reads are written under the lock, and whatever
  /// this answer misses of another thread's push is a push that came after.
  bool idle_here() {
    if (!ioc_.get_executor().running_in_this_thread())
      return false;
    return !draining_ && !waiting_.load(std::memory_order_acquire)
           && !closed_.load(std::memory_order_acquire);
  }

  /// Drops what was never run and refuses what comes later: the loop is
  /// going away. Whoever still holds this (a session an actor thread is
  /// sending to) may push safely; nothing reaches the loop any more.
  void close() {
    std::lock_guard<Lock> g(lock_);
    closed_.store(true, std::memory_order_release);
    items_.clear();
    waiting_.store(false, std::memory_order_release);
  }

private:
  void drain() {
    {
      std::lock_guard<Lock> g(lock_);
      taken_.swap(items_); // both keep their capacity: no allocation per batch
      waiting_.store(false, std::memory_order_release);
    }
    draining_ = true; // loop thread only, as idle_here()'s reading of it
    constexpr std::size_t d = prefetch_distance / 2;
    const auto n = taken_.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (i + 2 * d < n)
        prefetch_far(taken_[i + 2 * d]);
      if (i + d < n)
        prefetch_near(taken_[i + d]);
      run_(taken_[i]); // may push: into items_, a batch of its own
    }
    if (batch_end_)
      batch_end_(context_);
    draining_ = false;
    taken_.clear();
  }

  boost::asio::io_context& ioc_;
  run_fn run_;
  batch_end_fn batch_end_;
  void* context_;
  Lock lock_;
  std::atomic<bool> closed_ = false;
  std::atomic<bool> waiting_ = false; // items_ holds something (written under the lock)
  std::vector<Item> items_;
  std::vector<Item> taken_; // loop thread only
  bool draining_ = false;   // loop thread only
};

} // namespace cafmcp::http

#pragma once
// Work handed to the event loop in batches: the first item of a batch posts
// one handler, later items only join the batch, and the handler takes the
// whole batch in one swap. A broadcast to N sessions then costs the loop one
// post (one allocation, one scheduler lock, at most one wake-up) instead of
// N, and items keep the order they were handed in. No timer: a lone item
// runs on the loop's very next step.
#include <mutex>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

namespace cafmcp::http {

/// From any thread (actor threads hand frames to sessions).
template <class Item>
class loop_handoff {
public:
  using run_fn = void (*)(Item&);
  loop_handoff(boost::asio::io_context& ioc, run_fn run) : ioc_(ioc), run_(run) {}

  void push(Item item) {
    bool first;
    {
      std::lock_guard<std::mutex> g(mtx_);
      first = items_.empty();
      items_.push_back(std::move(item));
    }
    if (first)
      boost::asio::post(ioc_, [this] { drain(); });
  }

  /// Drops what was never run (the loop is gone: shutdown).
  void clear() {
    std::lock_guard<std::mutex> g(mtx_);
    items_.clear();
  }

private:
  void drain() {
    {
      std::lock_guard<std::mutex> g(mtx_);
      taken_.swap(items_); // both keep their capacity: no allocation per batch
    }
    for (auto& it : taken_)
      run_(it);
    taken_.clear();
  }

  boost::asio::io_context& ioc_;
  run_fn run_;
  std::mutex mtx_;
  std::vector<Item> items_;
  std::vector<Item> taken_; // loop thread only
};

/// On the loop thread only: the same batching without a lock (connections
/// whose writes start on the loop's next step, together).
template <class Item>
class loop_batch {
public:
  using run_fn = void (*)(Item&);
  loop_batch(boost::asio::io_context& ioc, run_fn run) : ioc_(ioc), run_(run) {}

  void push(Item item) {
    items_.push_back(std::move(item));
    if (items_.size() == 1)
      boost::asio::post(ioc_, [this] {
        taken_.swap(items_);
        for (auto& it : taken_)
          run_(it);
        taken_.clear();
      });
  }
  void clear() { items_.clear(); }

private:
  boost::asio::io_context& ioc_;
  run_fn run_;
  std::vector<Item> items_, taken_;
};

} // namespace cafmcp::http

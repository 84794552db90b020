#pragma once
// The way onto one event loop's thread from any other: the loop's own post
// (Asio's, which any thread may call), for as long as the loop runs actors
// (server::run_actors_here's handle lives). Closed as the loop lets go of
// them: a post is refused from then on, and its caller goes the other way
// (CAF's scheduler). Only loops whose post any thread may call have one:
// an HTTP loop, and stdio's reader (reader_inbox.hpp), which sleeps where
// a post can wake it only while one is awaited (below).
//
// It counts the posts on their way (expect() before a request leaves the
// loop for a handler thread, settle() once its answer was posted or none
// will be): a loop whose post cannot wake it when it sleeps (stdio's
// reader in read(2)) sleeps where it can be woken only while one is.
//
// Cost model: one uncontended lock and the loop's post a job; the post
// wakes the loop if it sleeps (Asio's interrupt), the one wake-up a job
// from another thread costs. Two atomic counts a request sent away.
#include <atomic>
#include <functional>
#include <mutex>

namespace cafmcp::actors {

class loop_door {
public:
  using poster = std::function<void(std::function<void()>)>;
  explicit loop_door(poster post) : post_(std::move(post)) {}
  loop_door(const loop_door&) = delete;
  loop_door& operator=(const loop_door&) = delete;

  /// Hands `job` to the loop: false, with `job` untouched, once closed.
  bool post(std::function<void()>& job) {
    std::lock_guard<std::mutex> g(mtx_);
    if (!post_)
      return false;
    post_(std::move(job));
    return true;
  }
  /// From the loop, as it stops running actors: nothing more goes to it.
  void close() {
    std::lock_guard<std::mutex> g(mtx_);
    post_ = nullptr;
  }

  /// On the loop: a post will come (or a settle() saying it will not).
  void expect() { awaited_.fetch_add(1); }
  /// From the poster, after its post (or instead of one).
  void settle() { awaited_.fetch_sub(1); }
  /// On the loop, before it sleeps: a post expected is still to come. Zero
  /// read after a settle(): the post before it is in the loop's queue.
  bool awaited() const { return awaited_.load() > 0; }

private:
  std::mutex mtx_; // posting threads against the loop's end
  poster post_;    // empty once closed
  std::atomic<int> awaited_{0};
};

} // namespace cafmcp::actors

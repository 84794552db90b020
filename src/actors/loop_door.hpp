#pragma once
// The way onto one event loop's thread from any other: the loop's own post
// (Asio's, which any thread may call), for as long as the loop runs actors
// (server::run_actors_here's handle lives). Closed as the loop lets go of
// them: a post is refused from then on, and its caller goes the other way
// (CAF's scheduler). Only loops whose post any thread may call have one
// (an HTTP loop; not stdio's reader, which runs what it is handed only
// between reads).
//
// Cost model: one uncontended lock and the loop's post a job; the post
// wakes the loop if it sleeps (Asio's interrupt), the one wake-up a job
// from another thread costs.
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

private:
  std::mutex mtx_; // posting threads against the loop's end
  poster post_;    // empty once closed
};

} // namespace cafmcp::actors

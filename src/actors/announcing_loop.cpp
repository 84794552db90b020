#include "actors/announcing_loop.hpp"

namespace cafmcp::actors {

void announcing_loop::offer(const void* unit, poster post) {
  std::lock_guard<std::mutex> g(mtx_);
  if (unit_)
    return;
  unit_ = unit;
  post_ = std::move(post);
}

void announcing_loop::withdraw(const void* unit) {
  std::lock_guard<std::mutex> g(mtx_);
  if (unit_ != unit)
    return;
  unit_ = nullptr;
  post_ = nullptr;
}

bool announcing_loop::post(std::function<void()>& job) {
  std::lock_guard<std::mutex> g(mtx_);
  if (!unit_)
    return false;
  post_(std::move(job));
  return true;
}

} // namespace cafmcp::actors

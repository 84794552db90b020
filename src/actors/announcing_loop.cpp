#include "actors/announcing_loop.hpp"

namespace cafmcp::actors {

void announcing_loop::offer(std::shared_ptr<loop_door> door) {
  std::lock_guard<std::mutex> g(mtx_);
  if (!door_)
    door_ = std::move(door);
}

void announcing_loop::withdraw(const loop_door* door) {
  std::lock_guard<std::mutex> g(mtx_);
  if (door_.get() == door)
    door_ = nullptr;
}

bool announcing_loop::post(std::function<void()>& job) {
  std::shared_ptr<loop_door> door;
  {
    std::lock_guard<std::mutex> g(mtx_);
    door = door_;
  }
  return door && door->post(job); // closed since: refused, as none
}

} // namespace cafmcp::actors

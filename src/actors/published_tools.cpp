#include "actors/published_tools.hpp"

namespace cafmcp::actors {

void published_tools::follow(const protocol::registry& reg) {
  edits_.store(reg.tool_edits, std::memory_order_release);
}

void published_tools::refresh(const protocol::registry& reg) {
  follow(reg);
  {
    std::lock_guard lock(latest_mutex_);
    if (latest_ && latest_->edits == reg.tool_edits)
      return;
  }
  // Copied outside the lock: only this actor writes, and readers that find
  // the old edition meanwhile take the long way, as they would have.
  auto fresh = std::make_shared<const edition>(
    edition{reg.tool_edits, protocol::tool_index(reg.tools.begin(), reg.tools.end())});
  std::lock_guard lock(latest_mutex_);
  latest_ = std::move(fresh);
}

const published_tools::edition* published_tools::current(std::shared_ptr<const edition>& cached) const {
  auto edits = edits_.load(std::memory_order_acquire);
  if (cached && cached->edits == edits)
    return cached.get();
  {
    std::lock_guard lock(latest_mutex_);
    cached = latest_;
  }
  return cached && cached->edits == edits ? cached.get() : nullptr;
}

} // namespace cafmcp::actors

#include "actors/loop_unit.hpp"

namespace cafmcp::actors {

namespace {
constexpr int resumes_per_drain = 64;
constexpr std::size_t messages_per_resume = 32;
} // namespace

loop_unit::loop_unit(caf::actor_system& sys, poster post, std::shared_ptr<loop_door> door)
  : caf::execution_unit(&sys), post_(std::move(post)), door_(std::move(door)) {}

loop_unit::~loop_unit() {
  for (auto* job : jobs_) // the loop stopped: CAF's workers run what was left
    system().scheduler().enqueue(job);
}

loop_unit*& loop_unit::here() {
  thread_local loop_unit* unit = nullptr;
  return unit;
}

void loop_unit::exec_later(caf::resumable* job) {
  jobs_.push_back(job);
  if (!posted_) {
    posted_ = true;
    post_([this] { drain(); });
  }
}

void loop_unit::drain() {
  posted_ = false;
  for (int n = 0; n < resumes_per_drain && !jobs_.empty(); ++n) {
    auto* job = jobs_.front();
    jobs_.pop_front();
    switch (job->resume(this, messages_per_resume)) {
      case caf::resumable::resume_later:
        system().scheduler().enqueue(job); // its reference goes with it
        break;
      default:
        caf::intrusive_ptr_release(job);
        break;
    }
  }
  if (!jobs_.empty() && !posted_) {
    posted_ = true;
    post_([this] { drain(); });
  }
}

} // namespace cafmcp::actors

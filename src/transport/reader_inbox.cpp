#include "transport/reader_inbox.hpp"

#include <cerrno>
#include <cstdint>

#include <thread>

#include <poll.h>
#include <sys/eventfd.h>
#include <unistd.h>

namespace cafmcp::transport {

reader_inbox::reader_inbox()
  : reader_(std::this_thread::get_id()), wake_fd_(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

reader_inbox::~reader_inbox() {
  if (wake_fd_ >= 0)
    ::close(wake_fd_);
}

void reader_inbox::post(std::function<void()> job) {
  if (std::this_thread::get_id() == reader_) { // the reader's own (its actors': loop_unit's drains)
    own_.push_back(std::move(job));
    return;
  }
  {
    std::lock_guard<std::mutex> g(mtx_);
    jobs_.push_back(std::move(job));
    pending_.store(true);
  }
  // Against wait(): it marks itself sleeping, then looks at pending_; this
  // marks pending_, then looks at sleeping_. One of the two sees the other
  // (both sequentially consistent): the reader stays up, or is woken.
  if (sleeping_.load() && wake_fd_ >= 0) {
    std::uint64_t one = 1;
    [[maybe_unused]] auto n = ::write(wake_fd_, &one, sizeof one); // a full counter is readable anyway
  }
}

void reader_inbox::take() {
  std::lock_guard<std::mutex> g(mtx_);
  taken_.swap(jobs_); // taken_ was emptied: jobs_ gets its buffer back, no allocation a turn
  pending_.store(false);
}

// Its own first, then the others': each in the order posted.
bool reader_inbox::take_next() {
  if (!own_.empty())
    taken_.swap(own_); // taken_ was emptied: own_ gets its buffer back, no allocation a turn
  else if (pending_.load())
    take();
  else
    return false;
  return true;
}

void reader_inbox::run() {
  while (take_next()) {
    for (auto& job : taken_)
      job();
    taken_.clear();
  }
}

void reader_inbox::drop() {
  while (take_next())
    taken_.clear();
}

bool reader_inbox::wait(int fd) {
  sleeping_.store(true);
  if (pending_.load()) {
    sleeping_.store(false);
    return false;
  }
  pollfd p[2] = {{fd, POLLIN, 0}, {wake_fd_, POLLIN, 0}};
  int n;
  do
    n = ::poll(p, wake_fd_ >= 0 ? 2 : 1, -1);
  while (n < 0 && errno == EINTR);
  sleeping_.store(false);
  if (n > 0 && (p[1].revents & POLLIN)) {
    std::uint64_t count;
    [[maybe_unused]] auto r = ::read(wake_fd_, &count, sizeof count);
  }
  // Ready, hung up or failed: read(2) says which. A failed poll too: the
  // read that follows reports the descriptor's trouble.
  return n < 0 || p[0].revents != 0;
}

} // namespace cafmcp::transport

#include "transport/line_writer.hpp"

#include <cerrno>
#include <string>

#include <sys/uio.h>
#include <unistd.h>

namespace cafmcp::transport {

line_writer::line_writer(int fd, std::size_t max_queue) : fd_(fd), max_queue_(max_queue) {
  thread_ = std::thread([this] { run(); });
}

line_writer::~line_writer() {
  close();
  if (thread_.joinable())
    thread_.join();
}

bool line_writer::send(frame message, const routing&) {
  std::unique_lock<std::mutex> lock(mtx_);
  if (closing_ || broken_ || queue_.size() >= max_queue_)
    return false;
  queue_.push_back(std::move(message));
  // Held: release() writes it, unless a whole batch waits already (a client
  // that sent hundreds of requests in one read): that goes now, so a hold
  // never fills the queue that an unheld writer would have kept empty.
  if (held_ && queue_.size() < max_batch)
    return true;
  if (writing_ || !nowait_) {
    cv_.notify_one();
    return true;
  }
  return write_queue_here(lock);
}

void line_writer::hold() {
  std::lock_guard<std::mutex> guard(mtx_);
  held_ = true;
}

void line_writer::release() {
  std::unique_lock<std::mutex> lock(mtx_);
  held_ = false;
  if (queue_.empty())
    return;
  if (writing_ || !nowait_) {
    cv_.notify_one();
    return;
  }
  write_queue_here(lock);
}

void line_writer::close() {
  std::lock_guard<std::mutex> guard(mtx_);
  closing_ = true;
  cv_.notify_one();
  closed_cv_.notify_all();
}

void line_writer::drain_and_stop(std::chrono::milliseconds limit) {
  {
    std::unique_lock<std::mutex> lock(mtx_);
    closed_cv_.wait_for(lock, limit, [this] { return closing_ || broken_; });
  }
  close();
  if (thread_.joinable())
    thread_.join();
}

void line_writer::run() {
  for (;;) {
    frame next;
    {
      std::unique_lock<std::mutex> lock(mtx_);
      cv_.wait(lock, [this] { return closing_ || (!queue_.empty() && !writing_ && !held_); });
      if (queue_.empty() || writing_) {
        if (!writing_)
          return;
        cv_.wait(lock, [this] { return !writing_; }); // closing: let a sender finish first
        if (queue_.empty())
          return;
      }
      next = std::move(queue_.front());
      queue_.pop_front();
      writing_ = true;
    }
    bool ok = write_line(*next);
    std::lock_guard<std::mutex> guard(mtx_);
    writing_ = false;
    if (!ok) {
      broken_ = true;
      queue_.clear();
      closed_cv_.notify_all();
      return;
    }
  }
}

// Writes the front of the queue from the calling thread, without
// blocking: one writev of up to max_batch lines. What the pipe did not
// take goes back to the front, in order, for the writer thread (woken
// here: no later frame might come to wake it, and an answer longer than
// the pipe holds would stop part-way). False when the pipe broke.
bool line_writer::write_queue_here(std::unique_lock<std::mutex>& lock) {
  writing_ = true;
  while (!queue_.empty() && batch_.size() < max_batch) {
    batch_.push_back(std::move(queue_.front()));
    queue_.pop_front();
  }
  lock.unlock();
  auto done = write_nowait(batch_);
  lock.lock();
  writing_ = false;
  if (done == failed) {
    batch_.clear();
    broken_ = true;
    queue_.clear();
    closed_cv_.notify_all();
    return false;
  }
  std::size_t taken = 0; // lines written whole
  while (taken < batch_.size() && done >= batch_[taken]->size() + 1)
    done -= batch_[taken++]->size() + 1;
  for (auto i = batch_.size(); i > taken; --i) {
    auto& f = batch_[i - 1];
    queue_.push_front(i - 1 == taken && done > 0 ? rest_of(*f, done) : std::move(f));
  }
  batch_.clear();
  // The writer thread may wait for this write: for what queued
  // meanwhile, or to finish closing. Otherwise it sleeps on: a wake-up
  // for nothing is two context switches per line.
  if (!queue_.empty() || closing_)
    cv_.notify_one();
  return true;
}

// One non-blocking attempt at the lines, each with its newline: bytes
// written (0 when the pipe is full), or `failed`. A file descriptor that
// cannot say "would block" (a terminal, say) turns the attempts off for
// good.
std::size_t line_writer::write_nowait(const std::vector<frame>& lines) {
  static const char newline = '\n';
  iovec parts[2 * max_batch];
  int n = 0;
  for (auto& l : lines) {
    parts[n++] = {const_cast<char*>(l->data()), l->size()};
    parts[n++] = {const_cast<char*>(&newline), 1};
  }
  for (;;) {
    auto w = ::pwritev2(fd_, parts, n, -1, RWF_NOWAIT);
    if (w >= 0)
      return static_cast<std::size_t>(w);
    if (errno == EINTR)
      continue;
    if (errno == EAGAIN)
      return 0;
    if (errno == EOPNOTSUPP || errno == EINVAL || errno == ESPIPE) {
      nowait_ = false;
      return 0;
    }
    return failed;
  }
}

// What a partial write left: the rest of the text, without its newline
// when that was all that remained (write_line adds one).
frame line_writer::rest_of(const std::string& text, std::size_t done) {
  return std::make_shared<const std::string>(done >= text.size() ? std::string() : text.substr(done));
}

bool line_writer::write_line(const std::string& text) {
  char newline = '\n';
  iovec parts[2] = {{const_cast<char*>(text.data()), text.size()}, {&newline, 1}};
  std::size_t total = text.size() + 1, done = 0;
  while (done < total) {
    // Skip what the previous partial writev already wrote.
    iovec rest[2];
    int n = 0;
    std::size_t skip = done;
    for (auto& p : parts) {
      if (skip >= p.iov_len) {
        skip -= p.iov_len;
        continue;
      }
      rest[n++] = {static_cast<char*>(p.iov_base) + skip, p.iov_len - skip};
      skip = 0;
    }
    auto w = ::writev(fd_, rest, n);
    if (w < 0) {
      if (errno == EINTR)
        continue;
      return false;
    }
    done += static_cast<std::size_t>(w);
  }
  return true;
}

} // namespace cafmcp::transport

#include "transport/stdio.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>

#include <poll.h>
#include <sys/uio.h>
#include <unistd.h>

#include "cafmcp/server.hpp"
#include "cafmcp/stdio.hpp"

#include "transport/spin_policy.hpp"

namespace cafmcp::transport {
namespace {

// Writes frames on a thread of its own, so actors never block on a slow
// reader; the queue is bounded, and a full queue ends the session. When
// nothing is queued or being written, the sender first tries the write
// itself without blocking (RWF_NOWAIT): a pipe with room takes the line at
// once, with no hand-off to the writer thread (a wake-up saved per message,
// most of stdio's latency on an idle machine). Order is kept: while any
// write is in progress, later frames queue behind it.
class line_writer : public outbound {
public:
  line_writer(int fd, std::size_t max_queue) : fd_(fd), max_queue_(max_queue) {
    thread_ = std::thread([this] { run(); });
  }
  ~line_writer() override {
    close();
    if (thread_.joinable())
      thread_.join();
  }

  bool send(frame message, const routing&) override {
    std::unique_lock<std::mutex> lock(mtx_);
    if (closing_ || broken_ || queue_.size() >= max_queue_)
      return false;
    if (queue_.empty() && !writing_ && nowait_) {
      writing_ = true;
      lock.unlock();
      auto done = write_nowait(*message);
      lock.lock();
      writing_ = false;
      // The writer thread may wait for this write: for what queued
      // meanwhile, or to finish closing. Otherwise it sleeps on: a wake-up
      // for nothing is two context switches per line.
      if (!queue_.empty() || closing_)
        cv_.notify_one();
      if (done == message->size() + 1)
        return true;
      if (done == failed) {
        broken_ = true;
        queue_.clear();
        closed_cv_.notify_all();
        return false;
      }
      // The pipe is full (or took part of it): the writer thread goes on
      // from where this left off, ahead of anything queued meanwhile. It
      // is told so here: without a frame after this one, nothing else
      // would wake it, and an answer longer than the pipe holds stopped
      // part-way until the next message (or end of input) came.
      queue_.push_front(done == 0 ? std::move(message) : rest_of(*message, done));
      cv_.notify_one();
      return true;
    }
    queue_.push_back(std::move(message));
    cv_.notify_one();
    return true;
  }

  void close() override {
    std::lock_guard<std::mutex> guard(mtx_);
    closing_ = true;
    cv_.notify_one();
    closed_cv_.notify_all();
  }
  const char* network_transport() const override { return "pipe"; }

  /// Blocks until the session closed us (or `limit` passed), then until
  /// every queued frame is written (or the pipe broke).
  void drain_and_stop(std::chrono::milliseconds limit) {
    {
      std::unique_lock<std::mutex> lock(mtx_);
      closed_cv_.wait_for(lock, limit, [this] { return closing_ || broken_; });
    }
    close();
    if (thread_.joinable())
      thread_.join();
  }

private:
  static constexpr std::size_t failed = static_cast<std::size_t>(-1);

  void run() {
    for (;;) {
      frame next;
      {
        std::unique_lock<std::mutex> lock(mtx_);
        cv_.wait(lock, [this] { return closing_ || (!queue_.empty() && !writing_); });
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

  // One non-blocking attempt at text + newline: bytes written (0 when the
  // pipe is full), or `failed`. A file descriptor that cannot say "would
  // block" (a terminal, say) turns the attempts off for good.
  std::size_t write_nowait(const std::string& text) {
    char newline = '\n';
    iovec parts[2] = {{const_cast<char*>(text.data()), text.size()}, {&newline, 1}};
    for (;;) {
      auto w = ::pwritev2(fd_, parts, 2, -1, RWF_NOWAIT);
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
  static frame rest_of(const std::string& text, std::size_t done) {
    return std::make_shared<const std::string>(done >= text.size() ? std::string() : text.substr(done));
  }

  bool write_line(const std::string& text) {
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

  int fd_;
  std::size_t max_queue_;
  std::mutex mtx_;
  std::condition_variable cv_;
  std::condition_variable closed_cv_;
  std::deque<frame> queue_;
  bool closing_ = false;
  bool broken_ = false;
  bool writing_ = false;           // a sender or the thread is writing: others queue
  std::atomic<bool> nowait_{true}; // the descriptor takes RWF_NOWAIT writes
  std::thread thread_;
};

} // namespace

int serve_stdio(server& srv, int in, int out, const stdio_options& options) {
  std::signal(SIGPIPE, SIG_IGN); // a vanished client is an EPIPE, not a kill
  auto writer = std::make_shared<line_writer>(out, srv.options().max_outbound_queue);
  auto conn = srv.connect(writer);
  // The reader as an execution unit (stdio_options::actors_on_reader): what
  // a line wakes (its session, the server actor, the notifier, the session
  // again) runs here, after the lines of one read and before the next, and
  // writes its answers itself (line_writer's RWF_NOWAIT path). `later` is
  // what the unit posted to this thread; it outlives the unit (declared
  // first), whose leftovers go to CAF's scheduler when it is destroyed.
  std::deque<std::function<void()>> later;
  auto run_later = [&later] {
    while (!later.empty()) {
      auto job = std::move(later.front());
      later.pop_front();
      job();
    }
  };
  std::shared_ptr<void> unit;
  if (options.actors_on_reader)
    unit = srv.run_actors_here([&later](std::function<void()> job) { later.push_back(std::move(job)); });
  // A line longer than the limit is cut at limit+1 bytes: the session's
  // parser answers it with a size error, and we never buffer the rest.
  const std::size_t cap = srv.options().message_limits.max_message_bytes + 1;
  std::string line;
  bool oversized = false;
  char buf[65536];
  // Polls `in` until it has something to read (or is at its end), for at
  // most poll_before_sleep: the read() after it then finds the line
  // without sleeping. Bounded, and over as soon as the next line arrives.
  // On one CPU the poll would only take the time a handler thread needs;
  // on a CPU the client shares, too (spin_policy.hpp tells, as it goes).
  spin_policy spin(std::thread::hardware_concurrency() > 1 ? options.poll_before_sleep
                                                           : std::chrono::microseconds(0));
  auto line_within = [in](spin_policy::duration budget) {
    pollfd p{in, POLLIN, 0};
    const auto until = std::chrono::steady_clock::now() + budget;
    for (;;) {
      if (::poll(&p, 1, 0) != 0)
        return true; // ready, hung up or an error: read() says which
      if (std::chrono::steady_clock::now() >= until)
        return false;
    }
  };
  for (;;) {
    bool missed = false;
    if (auto budget = spin.next(); budget > spin_policy::duration::zero()) {
      if (line_within(budget))
        spin.found();
      else
        missed = true;
    }
    const auto blocked_at =
      missed ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point();
    auto n = ::read(in, buf, sizeof buf);
    if (missed)
      spin.missed(std::chrono::steady_clock::now() - blocked_at);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    // Whole runs of bytes up to each newline (memchr), not a byte at a
    // time: ~4,000 instructions per update went to the loop here.
    const char* p = buf;
    const char* const end = buf + n;
    for (;;) {
      auto* newline = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      auto* stop = newline ? newline : end;
      if (!oversized && stop != p) {
        line.append(p, std::min(static_cast<std::size_t>(stop - p), cap - line.size()));
        oversized = line.size() >= cap;
      }
      if (!newline)
        break;
      if (!line.empty() && line.back() == '\r')
        line.pop_back();
      if (!line.empty())
        conn->receive(std::move(line));
      line.clear();
      oversized = false;
      p = newline + 1;
    }
    run_later(); // every line read is handled before this thread blocks in read() again
  }
  if (!line.empty())
    conn->receive(std::move(line));
  run_later();
  unit.reset(); // from here on, the session finishes on CAF's threads
  // The client may still read: answer what it already asked, then stop. The
  // session enforces drain_timeout; the margin covers a session that died.
  conn->finish();
  writer->drain_and_stop(srv.options().drain_timeout + std::chrono::seconds(5));
  conn->close();
  return 0;
}

} // namespace cafmcp::transport

int cafmcp::serve_stdio(server& srv, const stdio_options& options) {
  return transport::serve_stdio(srv, 0, 1, options);
}

void cafmcp::tune_for_stdio(server_options& o) {
  o.scheduler_threads = 1;
  // ~20 us: a client that reads the answer and sends its next request at
  // once (the load's stdio row: 15-20 us later) finds the thread awake.
  o.scheduler_spin_polls = 2000;
}

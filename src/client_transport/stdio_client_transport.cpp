// stdio client transport: three threads of its own, so that send() never
// blocks on a child that does not read and callbacks never wait on writes.
//   writer  drains the outbound queue into the child's stdin
//   reader  splits the child's stdout into lines -> on_message; at EOF it
//           reaps the child and reports on_closed (so on_closed follows the
//           last on_message, on the same thread)
//   stderr  (capture mode) splits stderr into lines -> on_stderr_line
#include "cafmcp/stdio_client_transport.hpp"

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <csignal>
#include <deque>
#include <mutex>
#include <thread>

#include <unistd.h>

#include "client_transport/child_process.hpp"

namespace cafmcp {
namespace {

using client_detail::child_process;
using client_detail::child_stderr;

child_stderr to_child(stdio_client_options::stderr_mode m) {
  switch (m) {
    case stdio_client_options::stderr_mode::capture: return child_stderr::pipe;
    case stdio_client_options::stderr_mode::discard: return child_stderr::discard;
    default: return child_stderr::inherit;
  }
}

/// Reads fd to EOF, calling `line` for each '\n'-terminated line (a final
/// unterminated line too). False if a line exceeded `max`.
template <class F>
bool read_lines(int fd, std::size_t max, F&& line) {
  std::string buf;
  char chunk[65536];
  for (;;) {
    auto n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    std::size_t start = buf.size();
    buf.append(chunk, static_cast<std::size_t>(n));
    std::size_t from = 0;
    for (auto nl = buf.find('\n', start); nl != std::string::npos; nl = buf.find('\n', from)) {
      std::string l = buf.substr(from, nl - from);
      if (!l.empty() && l.back() == '\r')
        l.pop_back();
      from = nl + 1;
      line(std::move(l));
    }
    buf.erase(0, from);
    if (buf.size() > max)
      return false;
  }
  if (!buf.empty())
    line(std::move(buf));
  return true;
}

class stdio_transport final : public stdio_client_transport {
public:
  explicit stdio_transport(stdio_client_options opts)
    : opts_(std::move(opts)), child_(opts_.argv, to_child(opts_.child_stderr)) {}

  ~stdio_transport() override {
    close();
    join(reader_);
    join(writer_);
    join(stderr_reader_);
  }

  void start(handlers h) override {
    h_ = std::move(h);
    {
      std::lock_guard<std::mutex> g(mtx_);
      started_ = true;
    }
    writer_ = std::thread([this] { write_loop(); });
    reader_ = std::thread([this] { read_loop(); });
    if (child_.stderr_fd() >= 0)
      stderr_reader_ = std::thread([this] {
        read_lines(child_.stderr_fd(), opts_.max_line_bytes, [this](std::string l) {
          if (opts_.on_stderr_line)
            opts_.on_stderr_line(std::move(l));
        });
      });
  }

  bool send(std::string text) override {
    std::lock_guard<std::mutex> g(mtx_);
    if (closing_ || broken_)
      return false;
    // One message per line (the spec: no embedded newlines). In valid JSON a
    // raw line break can only be whitespace between tokens (inside strings
    // it is escaped), so a pretty-printed text is made one line safely.
    for (auto& c : text)
      if (c == '\n' || c == '\r')
        c = ' ';
    text += '\n';
    queue_.push_back(std::move(text));
    cv_.notify_one();
    return true;
  }

  void close() override {
    {
      std::lock_guard<std::mutex> g(mtx_);
      if (closing_)
        return;
      closing_ = true;
      cv_.notify_one();
    }
    // The writer flushes what was queued, then closes stdin. Waiting for
    // the child's exit and escalating does not need the reader, so this is
    // safe from inside on_message too; the reader reaps and reports.
    std::unique_lock<std::mutex> lk(mtx_);
    if (!started_) {
      lk.unlock();
      child_.close_stdin();
    } else {
      cv_.wait_for(lk, opts_.close_grace, [this] { return stdin_closed_; });
      lk.unlock();
    }
    child_.escalate(opts_.close_grace);
  }

  int pid() const override { return child_.pid(); }
  std::string exit_status() const override {
    std::lock_guard<std::mutex> g(mtx_);
    return exit_status_;
  }

private:
  static void join(std::thread& t) {
    if (t.joinable() && t.get_id() != std::this_thread::get_id())
      t.join();
    else if (t.joinable())
      t.detach();
  }

  void write_loop() {
    // A child that stops reading makes write() fail with EPIPE; the signal
    // is blocked on this thread so it never kills the process.
    sigset_t pipe_only;
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    pthread_sigmask(SIG_BLOCK, &pipe_only, nullptr);
    std::unique_lock<std::mutex> lk(mtx_);
    for (;;) {
      cv_.wait(lk, [this] { return !queue_.empty() || closing_ || broken_; });
      if (queue_.empty() || broken_)
        break; // closing with everything flushed, or nobody reads any more
      std::string text = std::move(queue_.front());
      queue_.pop_front();
      lk.unlock();
      bool ok = write_all(text);
      lk.lock();
      if (!ok) {
        broken_ = true;
        queue_.clear();
        break;
      }
    }
    lk.unlock();
    child_.close_stdin();
    timespec zero{0, 0};
    while (sigtimedwait(&pipe_only, nullptr, &zero) > 0) {
    } // a SIGPIPE left pending by a failed write
    lk.lock();
    stdin_closed_ = true;
    cv_.notify_all();
  }

  bool write_all(const std::string& text) {
    std::size_t done = 0;
    while (done < text.size()) {
      auto n = ::write(child_.stdin_fd(), text.data() + done, text.size() - done);
      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return false;
      done += static_cast<std::size_t>(n);
    }
    return true;
  }

  void read_loop() {
    bool fits = read_lines(child_.stdout_fd(), opts_.max_line_bytes, [this](std::string l) {
      if (!l.empty() && h_.on_message)
        h_.on_message(std::move(l));
    });
    {
      std::lock_guard<std::mutex> g(mtx_);
      broken_ = true; // no more sends: nobody would answer them
      cv_.notify_all();
    }
    // stdout is closed: the child is exiting (or misbehaving); give it the
    // grace period, then end it, so the reap below is bounded.
    child_.escalate(opts_.close_grace);
    std::string status = child_.reap();
    {
      std::lock_guard<std::mutex> g(mtx_);
      exit_status_ = status;
    }
    if (h_.on_closed)
      h_.on_closed(fits ? "server process ended (" + status + ")"
                        : "server sent a line over max_line_bytes (" + status + ")");
  }

  stdio_client_options opts_;
  child_process child_;
  handlers h_;
  mutable std::mutex mtx_;
  std::condition_variable cv_;
  std::deque<std::string> queue_;
  bool started_ = false;
  bool closing_ = false;
  bool broken_ = false;
  bool stdin_closed_ = false;
  std::string exit_status_;
  std::thread writer_, reader_, stderr_reader_;
};

} // namespace

std::unique_ptr<stdio_client_transport> make_stdio_client_transport(stdio_client_options opts) {
  return std::make_unique<stdio_transport>(std::move(opts));
}

} // namespace cafmcp

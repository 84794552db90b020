#include "server_process.hpp"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <utility>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace cafmcp::load {

void server_process::spawn(const std::string& command, int in_fd, int out_fd, int err_fd) {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (in_fd >= 0)
    posix_spawn_file_actions_adddup2(&actions, in_fd, 0);
  else
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  if (out_fd >= 0)
    posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
  posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
  std::string line = "exec " + command;
  const char* argv[] = {"/bin/sh", "-c", line.c_str(), nullptr};
  int rc = ::posix_spawn(&pid_, "/bin/sh", &actions, nullptr, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    throw std::runtime_error("cannot start server: " + std::string(std::strerror(rc)));
}

namespace {
void cloexec_pipe(int fds[2]) {
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw std::runtime_error("pipe failed");
}
} // namespace

// Everything else (span JSON lines, say) is read and dropped: a chatty
// server must never block on its stderr.
void server_process::drain(int fd) {
  char buf[16384];
  std::string line;
  bool in_line = false, keep = false; // keep: the line began with "cafmcp"
  for (;;) {
    auto n = ::read(fd, buf, sizeof buf);
    if (n <= 0)
      return;
    for (const char *p = buf, *end = buf + n; p < end;) {
      if (!in_line) {
        in_line = true;
        keep =
          end - p >= 6 ? std::memcmp(p, "cafmcp", 6) == 0 : *p == 'c'; // a split head is kept, then checked
        line.clear();
      }
      auto nl = static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
      auto stop = nl ? nl : end;
      if (keep && line.size() < 512)
        line.append(p, std::min<std::size_t>(static_cast<std::size_t>(stop - p), 512 - line.size()));
      p = nl ? nl + 1 : end;
      if (nl) {
        in_line = false;
        if (keep)
          note(line);
      }
    }
  }
}

void server_process::note(const std::string& line) {
  if (line.rfind("cafmcp", 0) != 0)
    return;
  std::lock_guard<std::mutex> g(messages_mtx_);
  if (messages_.size() < 8)
    messages_.push_back(line);
}

std::vector<std::string> server_process::messages() const {
  std::lock_guard<std::mutex> g(messages_mtx_);
  return messages_;
}

server_process::server_process(const std::string& command, stdio_tag) {
  int in[2], out[2], err[2];
  cloexec_pipe(in);
  cloexec_pipe(out);
  cloexec_pipe(err);
  spawn(command, in[0], out[1], err[1]); // dup2 clears O_CLOEXEC on the child's 0, 1, 2
  ::close(in[0]);
  ::close(out[1]);
  ::close(err[1]);
  to_server_ = in[1];
  from_server_ = out[0];
  err_fd_ = err[0];
  drain_ = std::thread([this] { drain(err_fd_); });
}

void server_process::take_stdio(int& to_server, int& from_server) {
  to_server = std::exchange(to_server_, -1);
  from_server = std::exchange(from_server_, -1);
}

server_process::server_process(const std::string& command, std::chrono::seconds limit) {
  int fds[2];
  cloexec_pipe(fds);
  spawn(command, -1, -1, fds[1]);
  ::close(fds[1]);
  err_fd_ = fds[0];
  // Read stderr until a URL appears (bounded by `limit`).
  std::string seen;
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (url_.empty()) {
    auto left =
      std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{err_fd_, POLLIN, 0};
    if (left.count() <= 0 || ::poll(&p, 1, static_cast<int>(left.count())) <= 0)
      break;
    char buf[512];
    auto n = ::read(err_fd_, buf, sizeof buf);
    if (n <= 0)
      break;
    seen.append(buf, static_cast<std::size_t>(n));
    auto at = seen.find("http://");
    if (at != std::string::npos) {
      auto end = seen.find_first_of(" \r\n\t", at);
      if (end != std::string::npos)
        url_ = seen.substr(at, end - at);
    }
  }
  // What came before (or with) the URL: a warning at start-up counts too.
  for (std::size_t at = 0, nl; (nl = seen.find('\n', at)) != std::string::npos; at = nl + 1)
    note(seen.substr(at, nl - at));
  if (url_.empty()) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    throw std::runtime_error("server printed no URL on stderr: " + seen);
  }
  drain_ = std::thread([this] { drain(err_fd_); });
}

server_process::~server_process() {
  for (int fd : {to_server_, from_server_})
    if (fd >= 0)
      ::close(fd);
  if (pid_ > 0) {
    ::kill(pid_, SIGTERM);
    ::waitpid(pid_, nullptr, 0);
  }
  if (drain_.joinable())
    drain_.join(); // EOF once the server is gone
  if (err_fd_ >= 0)
    ::close(err_fd_);
}

} // namespace cafmcp::load

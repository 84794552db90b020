#pragma once
// The server under load, when cafmcp-load starts it itself: a child process
// whose URL and warnings are read from its stderr, and whose RSS and CPU
// time are read from /proc.
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <sys/types.h>

#include "../proc_cpu.hpp"
#include "../proc_rss.hpp"

namespace cafmcp::load {

class server_process {
public:
  /// Runs `command` through /bin/sh (exec'd, so the pid is the server's) and
  /// waits up to `limit` for "http://..." on its stderr. Throws on failure.
  server_process(const std::string& command, std::chrono::seconds limit);
  /// Stdio: runs `command` with pipes on its stdin and stdout, which the
  /// caller takes with take_stdio().
  struct stdio_tag {};
  server_process(const std::string& command, stdio_tag);
  /// The write end of the server's stdin and the read end of its stdout
  /// (the caller owns them from now on).
  void take_stdio(int& to_server, int& from_server);
  ~server_process();
  server_process(const server_process&) = delete;
  server_process& operator=(const server_process&) = delete;

  pid_t pid() const { return pid_; }
  const std::string& url() const { return url_; }
  /// The first lines the server wrote on stderr starting with "cafmcp"
  /// (cafmcp's warnings: dropped spans, closed sessions), so far.
  std::vector<std::string> messages() const;

private:
  pid_t pid_ = -1;
  int err_fd_ = -1;
  std::string url_;
  int to_server_ = -1, from_server_ = -1;
  void spawn(const std::string& command, int in_fd, int out_fd, int err_fd);
  void drain(int fd);
  void note(const std::string& line);
  mutable std::mutex messages_mtx_;
  std::vector<std::string> messages_;
  std::thread drain_; // keeps reading stderr so a chatty server never blocks
};

using bench::rss_kib;

} // namespace cafmcp::load

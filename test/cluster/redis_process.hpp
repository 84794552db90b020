#pragma once
// A real redis-server for a test: started on a free loopback port with no
// persistence, ready once it says so on stdout (no polling, no sleep),
// stopped (and reaped) when the object goes. pause()/resume() are SIGSTOP
// and SIGCONT: an outage that loses nothing.
#include <chrono>
#include <csignal>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace cafmcp::test {

/// A port nothing listens on right now (the kernel's choice).
inline std::uint16_t free_loopback_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

class redis_process {
public:
  explicit redis_process(std::uint16_t port = free_loopback_port(), std::vector<std::string> extra = {})
    : port_(port), extra_(std::move(extra)) {
    start();
  }
  ~redis_process() { stop(); }
  redis_process(const redis_process&) = delete;
  redis_process& operator=(const redis_process&) = delete;

  std::uint16_t port() const { return port_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_); }

  void pause() { ::kill(pid_, SIGSTOP); }
  void resume() { ::kill(pid_, SIGCONT); }

  /// Starts it (again, on the same port, empty) after stop().
  void start() {
    int out[2];
    if (::pipe(out) != 0)
      throw std::runtime_error("pipe");
    pid_ = ::fork();
    if (pid_ == 0) {
      // It dies with the test, and holds none of the test's own output: a
      // test that crashed must not leave a server keeping ctest's pipe open.
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);
      ::dup2(out[1], 1);
      if (int null = ::open("/dev/null", O_WRONLY); null >= 0) {
        ::dup2(null, 2);
        ::close(null);
      }
      ::close(out[0]);
      ::close(out[1]);
      auto port = std::to_string(port_);
      std::vector<const char*> argv{"redis-server", "--port",     port.c_str(),   "--bind", "127.0.0.1",
                                    "--save",       "",           "--appendonly", "no",     "--daemonize",
                                    "no",           "--loglevel", "notice"};
      for (auto& e : extra_)
        argv.push_back(e.c_str());
      argv.push_back(nullptr);
      ::execvp("redis-server", const_cast<char* const*>(argv.data()));
      ::_exit(127);
    }
    ::close(out[1]);
    bool ready = wait_ready(out[0], std::chrono::seconds(10));
    ::close(out[0]); // redis keeps writing its log to a closed pipe: it ignores SIGPIPE
    if (!ready) {
      stop();
      throw std::runtime_error("redis-server did not start on port " + std::to_string(port_));
    }
  }

  void stop() {
    if (pid_ <= 0)
      return;
    ::kill(pid_, SIGCONT);
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
    pid_ = -1;
  }

private:
  static bool wait_ready(int fd, std::chrono::milliseconds limit) {
    std::string seen;
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (seen.find("Ready to accept connections") == std::string::npos) {
      auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0)
        return false;
      pollfd p{fd, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(left.count())) <= 0)
        return false;
      char buf[4096];
      auto n = ::read(fd, buf, sizeof buf);
      if (n <= 0)
        return false; // it exited
      seen.append(buf, static_cast<std::size_t>(n));
    }
    return true;
  }

  std::uint16_t port_;
  std::vector<std::string> extra_; // more redis-server arguments
  pid_t pid_ = -1;
};

} // namespace cafmcp::test

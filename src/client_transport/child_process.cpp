#include "client_transport/child_process.hpp"

#include <cerrno>
#include <csignal>
#include <system_error>

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace cafmcp::client_detail {
namespace {

void close_fd(int& fd) {
  if (fd >= 0)
    ::close(fd);
  fd = -1;
}

[[noreturn]] void fail(const char* what, int err) {
  throw std::system_error(err, std::generic_category(), what);
}

} // namespace

std::string describe_wait_status(int status) {
  if (WIFEXITED(status))
    return "exit " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status))
    return "signal " + std::to_string(WTERMSIG(status));
  return "status " + std::to_string(status);
}

child_process::child_process(const std::vector<std::string>& argv, child_stderr err) {
  if (argv.empty())
    fail("spawn: empty command", EINVAL);
  int in[2], out[2], errp[2] = {-1, -1};
  // O_CLOEXEC on every end: the child keeps only what dup2 gives it, and
  // no other child spawned meanwhile inherits our ends.
  if (::pipe2(in, O_CLOEXEC) != 0)
    fail("pipe", errno);
  if (::pipe2(out, O_CLOEXEC) != 0)
    fail("pipe", errno);
  if (err == child_stderr::pipe && ::pipe2(errp, O_CLOEXEC) != 0)
    fail("pipe", errno);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[0], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  if (err == child_stderr::pipe)
    posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
  else if (err == child_stderr::discard)
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // The child starts with default SIGPIPE/SIGINT handling whatever we set.
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGPIPE);
  sigaddset(&defaults, SIGTERM);
  sigaddset(&defaults, SIGINT);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  sigset_t none;
  sigemptyset(&none);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  std::vector<char*> args;
  for (auto& a : argv)
    args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  int rc = ::posix_spawnp(&pid_, args[0], &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  ::close(in[0]);
  ::close(out[1]);
  if (errp[1] >= 0)
    ::close(errp[1]);
  in_ = in[1];
  out_ = out[0];
  err_ = errp[0];
  if (rc != 0) {
    close_fd(in_);
    close_fd(out_);
    close_fd(err_);
    fail(("spawn " + argv[0]).c_str(), rc);
  }
  pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
}

child_process::~child_process() {
  if (!status_)
    terminate(std::chrono::milliseconds(1000));
  close_fd(in_);
  close_fd(out_);
  close_fd(err_);
  close_fd(pidfd_);
}

void child_process::close_stdin() { close_fd(in_); }

bool child_process::wait_exit(std::chrono::milliseconds timeout) {
  if (pidfd_ >= 0) { // readable once the child exited, reaped or not
    pollfd p{pidfd_, POLLIN, 0};
    int n;
    do
      n = ::poll(&p, 1, static_cast<int>(timeout.count()));
    while (n < 0 && errno == EINTR);
    return n > 0;
  }
  // No pidfd (kernel before 5.3): a bounded WNOHANG poll.
  if (status_)
    return true;
  auto end = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
      status_ = describe_wait_status(st);
      return true;
    }
    if (std::chrono::steady_clock::now() >= end)
      return false;
    ::usleep(5000);
  }
}

void child_process::signal(int sig) {
  if (pidfd_ >= 0) // never a recycled pid, even after the reap
    ::syscall(SYS_pidfd_send_signal, pidfd_, sig, nullptr, 0);
  else if (!status_)
    ::kill(pid_, sig);
}

void child_process::escalate(std::chrono::milliseconds grace) {
  if (!wait_exit(grace)) {
    signal(SIGTERM);
    if (!wait_exit(grace))
      signal(SIGKILL);
  }
}

std::string child_process::terminate(std::chrono::milliseconds grace) {
  close_stdin();
  escalate(grace);
  return reap();
}

std::string child_process::stop(std::chrono::milliseconds grace) {
  signal(SIGTERM);
  if (!wait_exit(grace))
    signal(SIGKILL);
  return reap();
}

std::string child_process::reap() {
  if (status_)
    return *status_;
  int st = 0;
  pid_t r;
  do
    r = ::waitpid(pid_, &st, 0);
  while (r < 0 && errno == EINTR);
  status_ = r == pid_ ? describe_wait_status(st) : std::string("reaped elsewhere");
  return *status_;
}

} // namespace cafmcp::client_detail

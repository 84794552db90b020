#pragma once
// A spawned program with pipes to its stdin/stdout (and optionally stderr),
// watched through a pidfd so that waiting for its exit is a poll with a
// deadline and signals can never reach a recycled pid. Used by the stdio
// client transport and by tests that start servers.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include <sys/types.h>

namespace cafmcp::client_detail {

enum class child_stderr { inherit, pipe, discard };

class child_process {
public:
  /// Spawns argv[0] (searched in PATH) with argv. Throws std::system_error
  /// when the program cannot be started.
  child_process(const std::vector<std::string>& argv, child_stderr err);
  ~child_process(); // ends the child (terminate()) if it still runs
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  int stdin_fd() const { return in_; }
  int stdout_fd() const { return out_; }
  int stderr_fd() const { return err_; } // -1 unless child_stderr::pipe
  pid_t pid() const { return pid_; }

  /// Closes our end of the child's stdin (it sees EOF).
  void close_stdin();

  /// Waits up to `timeout` for the child to exit; true when it has.
  bool wait_exit(std::chrono::milliseconds timeout);

  /// Waits `grace` for an exit, then SIGTERM, waits `grace`, then SIGKILL.
  /// Does not reap, so it may run beside a thread blocked in reap().
  void escalate(std::chrono::milliseconds grace);

  /// close_stdin, wait `grace`, SIGTERM, wait `grace`, SIGKILL; then reaps.
  /// Returns the exit status text ("exit 0", "signal 15").
  std::string terminate(std::chrono::milliseconds grace);

  /// For servers that do not watch stdin: SIGTERM, wait `grace`, SIGKILL;
  /// then reaps.
  std::string stop(std::chrono::milliseconds grace);

  /// Reaps the child (blocking only if it has not exited); idempotent.
  std::string reap();

private:
  void signal(int sig);

  pid_t pid_ = -1;
  int pidfd_ = -1;
  int in_ = -1, out_ = -1, err_ = -1;
  std::optional<std::string> status_;
};

/// "exit N" / "signal N" for a waitpid status.
std::string describe_wait_status(int status);

} // namespace cafmcp::client_detail

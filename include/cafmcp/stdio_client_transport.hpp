#pragma once
// A client transport that spawns an MCP server and speaks newline-delimited
// JSON-RPC over its stdin/stdout (MCP 2025-11-25, basic/transports "stdio").
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cafmcp/client_transport.hpp"

namespace cafmcp {

struct stdio_client_options {
  /// The server command: argv[0] (searched in PATH) and its arguments.
  std::vector<std::string> argv;
  /// What happens to the child's stderr (the spec lets servers log there).
  enum class stderr_mode { inherit, capture, discard } child_stderr = stderr_mode::inherit;
  /// With capture: each stderr line (without its newline), on a thread of
  /// the transport's own.
  std::function<void(std::string line)> on_stderr_line;
  /// close(): how long the child gets after its stdin closes, and again after
  /// SIGTERM, before SIGKILL.
  std::chrono::milliseconds close_grace{2000};
  /// Longest line accepted from the server; a longer one ends the connection.
  std::size_t max_line_bytes = 16 * 1024 * 1024;
};

class stdio_client_transport : public client_transport {
public:
  /// The child's process id (for tests that end it from outside).
  virtual int pid() const = 0;
  /// "exit N" / "signal N" once the child has been reaped, else "".
  virtual std::string exit_status() const = 0;
};

/// Spawns the server at once (throws std::system_error if it cannot start);
/// messages flow after start().
std::unique_ptr<stdio_client_transport> make_stdio_client_transport(stdio_client_options opts);

} // namespace cafmcp

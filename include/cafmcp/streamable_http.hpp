#pragma once
// MCP's Streamable HTTP transport (2025-11-25) for a cafmcp::server: one
// endpoint for POST, GET and DELETE, sessions with unguessable ids, SSE
// streams with resumable event ids, and the security checks the spec asks
// for. One Asio event loop owns every socket; actors hand it frames without
// ever blocking on a client.
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cafmcp/http_options.hpp"
#include "cafmcp/server.hpp"
#include "cafmcp/startup_error.hpp"

namespace cafmcp {

/// Counters for tests and health checks.
struct http_stats {
  std::size_t sessions = 0;
  std::size_t open_connections = 0;
  std::size_t open_streams = 0;
  std::size_t dropped_slow_connections = 0;
};

class streamable_http {
public:
  streamable_http(server& srv, http_options options = {});
  ~streamable_http(); // stops, ends every session
  streamable_http(const streamable_http&) = delete;
  streamable_http& operator=(const streamable_http&) = delete;

  /// Binds and starts the event loop thread; throws startup_error naming
  /// the cause when it cannot (a bad host, a port in use).
  void start();
  /// The bound port (useful with port 0).
  std::uint16_t port() const;
  /// Stops accepting and answers new requests 503; lets the requests in
  /// flight be answered for up to http_options::shutdown_grace (2026-07-28
  /// listen streams end at once with their completion result); answers
  /// what is left with a JSON-RPC error; waits up to shutdown_flush_timeout
  /// for clients to read it; then closes every connection and session:
  /// when it returns no socket is open. A stopped transport does not start
  /// again (start() throws startup_error); make a new one.
  void stop();
  /// start() unless started, then block until SIGINT/SIGTERM, then stop().
  /// A second SIGINT/SIGTERM during stop()'s grace ends the process at once
  /// (exit status 128 + the signal), saying so on stderr.
  int run();

  http_stats stats() const;

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace cafmcp

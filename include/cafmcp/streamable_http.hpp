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

#include "cafmcp/server.hpp"
#include "cafmcp/startup_error.hpp"

namespace cafmcp {

struct http_options {
  std::string host = "127.0.0.1"; // loopback unless you say otherwise
  std::uint16_t port = 3000;      // 0: any free port (see streamable_http::port)
  std::string path = "/mcp";
  /// Extra Host header values and Origins accepted besides this server's own
  /// loopback names (localhost, 127.0.0.1, [::1] with the bound port).
  std::vector<std::string> allowed_hosts;
  std::vector<std::string> allowed_origins;
  /// When set (or CAFMCP_HTTP_TOKEN in the environment), every request needs
  /// `Authorization: Bearer <token>`.
  std::optional<std::string> bearer_token;
  std::size_t max_body_bytes = 4 * 1024 * 1024;  // -> 413
  std::size_t max_header_bytes = 16 * 1024;      // -> 431
  /// Events kept per SSE stream for Last-Event-ID replay (whichever bound
  /// is reached first discards the oldest).
  std::size_t stream_history_events = 1024;
  std::size_t stream_history_bytes = 8 * 1024 * 1024;
  std::chrono::seconds stream_history_age{300};
  /// Request streams that already carried their response stay resumable
  /// for stream_history_age, and at most this many per session.
  std::size_t finished_streams_per_session = 64;
  /// Bytes a client may leave unread on one connection before it is
  /// disconnected (it can resume with Last-Event-ID).
  std::size_t max_unread_bytes = 4 * 1024 * 1024;
  std::chrono::milliseconds keep_alive_interval{15000};
  std::chrono::milliseconds retry_hint{1000};    // SSE `retry:` before we close
  /// A session with no open connection and no request for this long ends
  /// (its client is gone: killed, or never said DELETE).
  std::chrono::milliseconds session_idle_timeout{std::chrono::minutes(10)};
  std::size_t max_sessions = 100000;
  /// 2026-07-28 requests (each outside any session) in flight at once, open
  /// subscriptions/listen streams included; over it: 503.
  std::size_t max_stateless_requests = 100000;
  /// Event-loop threads (1..16). Connections are spread over them; each
  /// session lives on one, and its requests and streams are served there,
  /// so a broadcast's writes run on every loop at once.
  std::size_t event_loops = 1;
};

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
  /// Stops accepting, closes every connection, ends every session.
  void stop();
  /// start() unless started, then block until SIGINT/SIGTERM, then stop().
  int run();

  http_stats stats() const;

  struct impl;

private:
  std::unique_ptr<impl> impl_;
};

} // namespace cafmcp

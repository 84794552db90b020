#pragma once
// The seam between cafmcp::client and a way to reach a server (a spawned
// stdio process, Streamable HTTP, a server in the same process). Like the
// server side's transport.hpp, a client transport moves whole JSON-RPC texts
// and knows nothing of MCP methods; correlation, the cache and list-changed
// handling live above it and are testable without one.
#include <functional>
#include <string>

namespace cafmcp {

class client_transport {
public:
  struct handlers {
    /// One inbound JSON-RPC text (response, notification or server->client
    /// request), in the order the server sent it on its stream. Called on the
    /// transport's own thread; must not block for long.
    std::function<void(std::string text)> on_message;
    /// The connection is gone for good (process exited, HTTP session ended,
    /// resumption gave up). Called once, after the last on_message.
    std::function<void(std::string reason)> on_closed;
  };

  virtual ~client_transport() = default;

  /// Starts delivering inbound messages to `h`. Called once, before send().
  virtual void start(handlers h) = 0;

  /// Sends one JSON-RPC text. Thread-safe, never blocks on the network.
  /// False when the connection is closed. A transport that cannot deliver a
  /// request (an HTTP error status) answers it with a JSON-RPC error response
  /// through on_message, so no caller waits for a reply that cannot come.
  virtual bool send(std::string text) = 0;

  /// The lifecycle finished (initialize answered, `notifications/initialized`
  /// sent) with `protocol_version`: HTTP starts sending MCP-Protocol-Version
  /// and opens its GET stream. Others ignore it.
  virtual void negotiated(const std::string& protocol_version) {}

  /// Ends the connection (stdio: close the child's stdin and reap it; HTTP:
  /// DELETE the session). on_closed follows.
  virtual void close() = 0;
};

} // namespace cafmcp

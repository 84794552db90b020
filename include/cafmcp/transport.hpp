#pragma once
// The seam between a transport (stdio, in-process, Streamable HTTP) and the
// MCP core. A transport moves whole JSON-RPC messages (texts, or parsed when
// it had to read the id); it knows nothing of MCP methods. The only protocol
// fact it gets is which request an outgoing message belongs to, so that HTTP
// can route it to that request's stream.
#include <compare>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "cafmcp/auth.hpp"
#include "cafmcp/json_rpc.hpp"

namespace cafmcp {

/// One serialized JSON-RPC message, shared by every receiver of a broadcast:
/// serialized once, never copied per session.
using frame = std::shared_ptr<const std::string>;

/// Clustered: where a notification sits in the cluster's change log, the
/// same on every node: the entry's position (Redis's "<ms>-<seq>") and the
/// message's place among what that entry tells one session. HTTP makes the
/// event id of it, so a client resumes its stream on any node.
struct log_mark {
  std::uint64_t ms = 0;
  std::uint64_t seq = 0;
  std::uint32_t k = 0;
  auto operator<=>(const log_mark&) const = default;
};

/// Where an outgoing message belongs.
struct routing {
  /// The JSON-RPC id (as jsonrpc::to_key text: `7` or `"abc"`) of the
  /// client request this message answers or was sent while handling
  /// (progress, logging, sampling...). Empty: unrelated to any request
  /// (list_changed, resources/updated) -> HTTP's standalone GET stream.
  std::optional<std::string> request_key;
  /// True for the final response to `request_key`: the HTTP transport may
  /// end that request's stream after it.
  bool final_response = false;
  /// Clustered: a notification from the change log, and where it sits.
  std::optional<log_mark> logged = std::nullopt;
  /// The sender has more messages right behind this one (a burst of
  /// changes): the transport may hold it back a moment to write them
  /// together. A hint; false: deliver it as soon as possible.
  bool burst = false;
};

/// Implemented by a transport; called by the session from actor threads.
/// Implementations must be thread-safe and must never block the caller:
/// hand the bytes to the transport's own thread or event loop.
class outbound {
public:
  virtual ~outbound() = default;
  /// Deliver one message. Returns false when the connection is gone or its
  /// bounded queue is full; the session then ends the connection (the
  /// client may resume where the transport supports it).
  virtual bool send(frame message, const routing& where) = 0;
  /// Request `key` ends with no response (the client cancelled it, or ended
  /// a listen stream): HTTP answers its POST or ends its stream. Transports
  /// with no per-request state need nothing.
  virtual void end_request(const std::string& key) {}
  /// The transport may close request `key`'s stream now and let the client
  /// reconnect for the rest (Streamable HTTP's SSE polling, SEP-1699).
  /// Others ignore it.
  virtual void release_stream(const std::string& key) {}
  /// The server ends this connection (stdio: close stdout and stop reading).
  virtual void close() = 0;
  /// OpenTelemetry's `network.transport` ("pipe", "tcp"), or null.
  virtual const char* network_transport() const { return nullptr; }
  /// True when this connection carries one stateless request only (an HTTP
  /// POST outside any session): it is served by the stateless revision's
  /// rules even when its `_meta` is missing.
  virtual bool stateless() const { return false; }
  /// A send() follows soon: the transport may start loading what it will
  /// read into the cache. Only a hint (no effect on what is sent).
  virtual void prefetch() const noexcept {}
};

/// Implemented by the core; held by the transport for one client connection.
class connection {
public:
  virtual ~connection() = default;
  /// One inbound JSON-RPC text (a stdio line, an HTTP POST body). Never
  /// blocks; parsing and validation happen on the session actor.
  virtual void receive(std::string text) = 0;
  /// The same, already parsed by a transport that needed the message's id
  /// (HTTP routes answers by it), with the server's message_limits: the
  /// session does not parse it again.
  virtual void receive(jsonrpc::message msg) = 0;
  /// The same, from a caller whose token the transport verified: handlers
  /// see `who` (request_context::caller), and what it may list and use
  /// follows its scopes.
  virtual void receive(jsonrpc::message msg, std::shared_ptr<const auth::identity> who) {
    receive(std::move(msg));
  }
  /// A 2026-07-28 request over HTTP with the `Mcp-Param-*` headers it came
  /// with (name after the prefix, lower-cased -> raw value): the core checks
  /// them against the tool's `x-mcp-header` parameters (SEP-2243).
  virtual void receive(jsonrpc::message msg, std::shared_ptr<const auth::identity> who,
                       std::shared_ptr<const std::map<std::string, std::string>> param_headers) {
    if (who)
      receive(std::move(msg), std::move(who));
    else
      receive(std::move(msg));
  }
  /// The client is gone (EOF, socket closed, HTTP DELETE). The session actor
  /// stops, its subscriptions go with it.
  virtual void close() = 0;
  /// The client will send nothing more but may still read (stdio EOF): the
  /// requests in flight are answered, then the session closes its outbound
  /// (bounded by server_options::drain_timeout).
  virtual void finish() { close(); }
  /// Process-unique id of the session (for logs, tracing, stats).
  virtual const std::string& id() const = 0;
};

} // namespace cafmcp

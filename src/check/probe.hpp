#pragma once
// One MCP session as cafmcp-check sees it: the raw wire, not a client
// library. It records every inbound message in arrival order (so the exact
// shape of each notification, and whether it came before `initialized`, can
// be judged), correlates its own requests by id (the client library's
// rpc_channel), and answers the server's
// requests (ping; anything else "method not found") so no server waits.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "cafmcp/client_transport.hpp"
#include "cafmcp/http_client_transport.hpp"
#include "cafmcp/json.hpp"

#include "client/rpc_channel.hpp"
#include "client_transport/http_stream_control.hpp"

namespace cafmcp::check {

using ms = std::chrono::milliseconds;
using message_filter = std::function<bool(const json&)>;

/// A request that got no answer in time, or a session that closed.
struct probe_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class probe {
public:
  /// `http` is the same transport when it is one (for stream control).
  probe(std::unique_ptr<client_transport> t, http_client_transport* http);
  ~probe();
  probe(const probe&) = delete;
  probe& operator=(const probe&) = delete;

  /// Sends initialize; returns its result. Throws probe_error on an error.
  json initialize(ms timeout);
  /// Sends `notifications/initialized` and tells the transport (HTTP opens
  /// its GET stream). Messages received before this are "before initialized".
  void send_initialized();
  /// Tells the transport the version without sending `initialized`.
  void negotiated_only();

  /// Stateless revisions (2026-07-28): `meta` is merged into every
  /// request's params._meta, and the transport is told the version.
  void go_stateless(const std::string& version, json meta);
  /// Sends a request without waiting for its answer (a long-lived
  /// `subscriptions/listen`); its id.
  json start_request(const std::string& method, json params);
  void notify(const std::string& method, json params);

  /// One request; the whole response message (with result or error).
  /// Throws probe_error when none arrives in time.
  json request(const std::string& method, json params, ms timeout);

  /// A ping round trip: everything the server wrote to this session's
  /// stream before answering is in by now (same stream: stdio, and HTTP
  /// servers answering on the stream they notify on).
  void barrier(ms timeout) { request("ping", json::object(), timeout); }

  /// Inbound notifications so far (from index `from` of all inbound messages).
  std::size_t mark() const;
  std::vector<json> notifications(std::size_t from = 0) const;
  /// Waits until `n` notifications from `from` match; false at the deadline.
  bool wait_notifications(const message_filter& match, std::size_t n, std::size_t from, ms timeout);
  std::size_t count_notifications(const message_filter& match, std::size_t from) const;
  /// Every inbound message so far (responses and requests too).
  std::vector<json> messages() const;
  /// Notifications that arrived before send_initialized().
  std::vector<json> notifications_before_initialized() const;

  http_client_transport* http() const { return http_; }
  /// The HTTP transport's GET stream control (nullptr over stdio).
  http_stream_control* stream() const { return stream_; }
  void close();
  const std::string& protocol_version() const { return version_; }

private:
  void on_message(std::string text);

  std::unique_ptr<client_transport> transport_;
  http_client_transport* http_;
  http_stream_control* stream_;
  mutable std::mutex mtx_;
  std::condition_variable cv_;
  std::vector<json> inbound_; // every message, in order
  std::size_t initialized_at_ = static_cast<std::size_t>(-1);
  std::optional<std::string> closed_;
  client_core::rpc_channel rpc_{1024};
  bool failing_locally_ = false; // inside expire()/fail_all(): not the server's answer
  std::string version_ = "2025-11-25";
  json request_meta_; // merged into every request's params._meta when set
};

/// "method" is `m` and there is no id.
message_filter method_is(std::string m);

} // namespace cafmcp::check

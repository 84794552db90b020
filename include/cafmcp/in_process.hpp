#pragma once
// A client connection inside the server's own process: no sockets, no
// serialization shortcuts (messages still travel as JSON-RPC text), so a
// test or an embedding program sees exactly what a remote client would.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "cafmcp/json.hpp"
#include "cafmcp/protocol_version.hpp"
#include "cafmcp/server.hpp"

namespace cafmcp {

class in_process_client {
public:
  using clock = std::chrono::steady_clock;
  static constexpr std::chrono::milliseconds default_wait{5000};

  explicit in_process_client(server& srv);
  ~in_process_client();

  /// Sends any JSON-RPC message, or raw text (bad-input tests).
  void send(const json& message);
  void send_text(std::string text);

  /// Sends a request with a fresh id and waits for its response message
  /// (the whole `{jsonrpc,id,result|error}`); other messages stay queued.
  /// Throws std::runtime_error when none arrives within `wait`.
  json request(std::string method, json params = nullptr, std::chrono::milliseconds wait = default_wait);
  void notify(std::string method, json params = nullptr);

  /// initialize (with `capabilities`) + notifications/initialized; returns
  /// the initialize result once the session is operating, i.e. the change
  /// notifier will deliver to it (a ping round trip, then a notifier barrier).
  json initialize(json capabilities = json::object(),
                  std::string version = std::string(latest_protocol_version));

  /// Waits for the first queued message `match` accepts and removes it.
  std::optional<json> wait_for(const std::function<bool(const json&)>& match,
                               std::chrono::milliseconds wait = default_wait);
  /// ... the first notification with `method`.
  std::optional<json> wait_for_method(const std::string& method,
                                      std::chrono::milliseconds wait = default_wait);
  /// Removes and returns every queued message `match` accepts, without waiting.
  std::vector<json> take(const std::function<bool(const json&)>& match);

  /// True once the server closed this connection.
  bool closed_by_server() const;
  /// Ends the connection (the session actor stops).
  void close();

  const std::string& session_id() const;

private:
  struct inbox;
  server* server_;
  std::shared_ptr<inbox> inbox_;
  std::shared_ptr<connection> conn_;
  std::int64_t next_id_ = 0;
};

} // namespace cafmcp

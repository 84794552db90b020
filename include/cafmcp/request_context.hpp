#pragma once
// What a tool, prompt, resource or completion handler gets besides its
// arguments: a way to report progress, log to the client, notice
// cancellation and ask the client things (sampling, elicitation, roots).
// Handlers run on a worker of their own, never on the server actor, so they
// may block (a slow tool never delays notifications or other requests).
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cafmcp/json.hpp"

namespace cafmcp {

/// RFC 5424 severities as MCP names them, lowest first.
enum class log_level { debug, info, notice, warning, error, critical, alert, emergency };
std::optional<log_level> parse_log_level(std::string_view name);
std::string_view to_string(log_level level);

/// Thrown by request_context::request when the client answers with a
/// JSON-RPC error, does not answer in time, or the session ends.
class client_request_error : public std::runtime_error {
public:
  client_request_error(int code, std::string message, std::optional<json> data = {})
    : std::runtime_error(std::move(message)), code_(code), data_(std::move(data)) {}
  int code() const noexcept { return code_; }
  const std::optional<json>& data() const noexcept { return data_; }

private:
  int code_;
  std::optional<json> data_;
};

class request_context {
public:
  class impl; // internal
  explicit request_context(std::shared_ptr<impl> p);
  ~request_context();

  /// `notifications/progress` for this request, when the client sent a
  /// progressToken; otherwise nothing. Values that do not increase are
  /// dropped (the spec requires progress to increase).
  void progress(double progress, std::optional<double> total = {},
                std::optional<std::string> message = {});

  /// `notifications/message`, when `level` is at or above the session's
  /// level (logging/setLevel; `info` until the client sets one).
  void log(log_level level, json data, std::string logger = {});

  /// True once the client sent notifications/cancelled for this request (or
  /// the session ended): stop working, the result will not be sent.
  bool cancelled() const;

  /// A server->client request (`sampling/createMessage`, `elicitation/create`,
  /// `roots/list`), correlated with this request so HTTP sends it on this
  /// request's stream. Blocks this worker until the client answers; throws
  /// client_request_error on an error answer, timeout or session end.
  json request(std::string method, json params,
               std::chrono::milliseconds timeout = std::chrono::seconds(60));

  /// Lets the transport close this request's stream while the handler keeps
  /// working (SSE polling): the client reconnects with Last-Event-ID and
  /// receives what follows, the result included. Nothing is lost; stdio
  /// ignores it.
  void release_stream();

  /// The client's capabilities from initialize (e.g. to check `sampling`).
  const json& client_capabilities() const;
  /// `params._meta` of the request (may be null).
  const json& meta() const;
  const std::string& session_id() const;

private:
  std::shared_ptr<impl> impl_;
};

} // namespace cafmcp

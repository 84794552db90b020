#pragma once
// What a tool, prompt, resource or completion handler gets besides its
// arguments: a way to report progress, log to the client, notice
// cancellation and ask the client things (sampling, elicitation, roots).
// Handlers run on a worker of their own, never on the server actor, so they
// may block (a slow tool never delays notifications or other requests);
// only a tool marked quick, or an asynchronous one (tool::async_handler),
// runs on its session's actor, and may not.
#include <chrono>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "cafmcp/auth.hpp"
#include "cafmcp/json.hpp"
#include "cafmcp/log_level.hpp"

namespace cafmcp {

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

/// Thrown out of a handler serving a 2026-07-28 request: the request is
/// answered with `resultType: "input_required"` carrying these
/// `inputRequests` (key -> {method, params}); the client retries with
/// `inputResponses` under the same keys. `state` comes back (sealed, so
/// the client cannot alter it) as request_context::request_state().
/// Deliberately not a std::exception: a handler's catch (std::exception&)
/// must not swallow it.
struct input_required {
  json requests;
  json state = nullptr;
};

/// Thrown out of a handler: the request fails with this JSON-RPC error
/// (instead of a tool error). Not a std::exception, for the same reason.
struct request_refused {
  int code;
  std::string message;
  std::optional<json> data;
};

class request_context {
public:
  class impl; // internal
  explicit request_context(std::shared_ptr<impl> p);
  ~request_context();

  /// `notifications/progress` for this request, when the client sent a
  /// progressToken; otherwise nothing. Values that do not increase are
  /// dropped (the spec requires progress to increase).
  void progress(double progress, std::optional<double> total = {}, std::optional<std::string> message = {});

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
  /// For a 2026-07-28 (stateless) client it never blocks: the n-th call
  /// returns the retry's answer under key "cafmcp-<n>", or ends the handler
  /// with input_required asking for it (the handler runs again on the
  /// retry, so it must be a function of its inputs); a client that did not
  /// declare the capability the method needs gets -32021.
  /// `timeout`: by default the server's client_request_timeout.
  json request(std::string method, json params,
               std::optional<std::chrono::milliseconds> timeout = std::nullopt);

  /// Tasks (a tool with handler_starts_task): makes this call a task now.
  /// The request is answered with the task (CreateTaskResult) at once; the
  /// handler keeps running, its result goes to the task, and from here on
  /// input it asks for (request(), input_required) waits in the task
  /// (status input_required) for the client's tasks/update or answer.
  /// False, and nothing changes, when this call cannot be a task (the
  /// client does not speak tasks, or the tool forbids them). True at once
  /// when it already is one. Throws request_refused when the server's task
  /// limits are reached.
  bool continue_as_task();
  /// The id of the task this handler works for, or empty.
  const std::string& task_id() const;
  /// Lets the transport close this request's stream while the handler keeps
  /// working (SSE polling): the client reconnects with Last-Event-ID and
  /// receives what follows, the result included. Nothing is lost; stdio
  /// ignores it.
  void release_stream();

  /// The client's capabilities: from initialize, or from a stateless
  /// request's `_meta` (e.g. to check `sampling`).
  const json& client_capabilities() const;
  /// Throws request_refused (-32021, data.requiredCapabilities) unless the
  /// client declared capability `name` ("sampling", "elicitation", "roots").
  void require_client_capability(std::string_view name) const;

  /// True for a 2026-07-28 request (stateless; multi-round-trip input).
  bool stateless() const;
  /// The client's answer to input request `key`, from this retry's
  /// `inputResponses` or an earlier round's (carried in the sealed state).
  std::optional<json> input_response(const std::string& key) const;
  /// The `state` of the input_required this request answers (an empty
  /// object on a first round).
  const json& request_state() const;
  /// `params._meta` of the request (may be null).
  const json& meta() const;
  const std::string& session_id() const;
  /// Over HTTP with a token verifier: who made this request (subject,
  /// client, scopes, the token's claims). Null otherwise.
  const auth::identity* caller() const;

private:
  std::shared_ptr<impl> impl_;
};

} // namespace cafmcp

#pragma once
// How a cafmcp::client behaves: who it says it is, what it handles for the
// server (sampling, elicitation, roots), which list changes it follows, and
// its limits.
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

#include "cafmcp/json.hpp"
#include "cafmcp/protocol_version.hpp"

namespace cafmcp {

struct client_options {
  std::string name = "cafmcp-client";
  std::string version = "0.1.0";
  std::string protocol_version = std::string(latest_protocol_version);
  /// Extra client capabilities; sampling / elicitation / roots are added
  /// when their handler is set.
  json capabilities = json::object();

  /// Server->client requests. Each gets the request's params and returns the
  /// result object; a throw becomes a JSON-RPC error. They run on the
  /// client's callback thread, so they may call the client themselves.
  std::function<json(const json& params)> on_sampling;
  std::function<json(const json& params)> on_elicitation;
  std::function<json(const json& params)> on_roots;

  /// Follow `notifications/*/list_changed` for each kind (only where the
  /// server declared `listChanged`).
  struct list_changed_options {
    bool tools = true;
    bool resources = true; // resources and resource templates
    bool prompts = true;
  } follow_list_changed;

  /// A failed list reload is retried after `initial_backoff`, doubling up to
  /// `max_backoff`, `reload_attempts` times in all before it is reported as
  /// given up (a new notification starts again).
  std::chrono::milliseconds initial_backoff{100};
  std::chrono::milliseconds max_backoff{5000};
  int reload_attempts = 5;

  /// A request unanswered for this long fails with a timeout error.
  std::chrono::milliseconds request_timeout{30000};
  /// Requests in flight at once; more fail at once (the server is not
  /// flooded by a runaway caller).
  std::size_t max_pending_requests = 1024;
  /// Pages followed by one list call (a server that never ends its cursor
  /// cannot keep the client looping).
  std::size_t max_list_pages = 1000;
};

} // namespace cafmcp

#pragma once
// What a client tells its users about: lists that changed, resources that
// were updated, subscriptions, cached content, failed reloads, the server's
// log messages and the end of the connection.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "cafmcp/json.hpp"

namespace cafmcp {

enum class client_event_kind {
  tools_changed, // the tools list was reloaded or patched
  resources_changed,
  resource_templates_changed,
  prompts_changed,
  resource_updated,      // key: the uri (its cache entries are cleared)
  subscriptions_changed, // detail: the subscribed uris
  cache_changed,         // key: uri/name; detail: {kind, stored}
  reload_failed,         // key: the list kind; detail: {attempt, error, retrying}
  log_message,           // detail: the notification's params
  task_status,           // key: the task id; detail: the Task (notifications/tasks/status)
  closed,                // detail: {reason}
};

struct client_event {
  client_event_kind kind;
  std::string key;
  json detail;
};

using client_event_handler = std::function<void(const client_event&)>;

/// Keeps an event handler registered; destroying or reset()-ing it removes
/// the handler. Once that returns, the handler is not running and never runs
/// again, so its captures may go: a call in progress on the client's callback
/// thread is waited for (don't hold a lock the handler takes while doing it).
class event_subscription {
public:
  event_subscription() = default;
  explicit event_subscription(std::function<void()> cancel) : cancel_(std::move(cancel)) {}
  event_subscription(event_subscription&& o) noexcept : cancel_(std::move(o.cancel_)) { o.cancel_ = nullptr; }
  event_subscription& operator=(event_subscription&& o) noexcept {
    reset();
    cancel_ = std::move(o.cancel_);
    o.cancel_ = nullptr;
    return *this;
  }
  ~event_subscription() { reset(); }
  void reset() {
    if (cancel_)
      cancel_();
    cancel_ = nullptr;
  }

private:
  std::function<void()> cancel_;
};

} // namespace cafmcp

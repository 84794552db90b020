#pragma once
// When to reload a descriptor list after `list_changed` (seed 003): at most
// one reload in flight per list, plus one more if notifications arrived
// meanwhile; a failed reload is retried with exponential backoff and given
// up after a number of attempts (a later notification starts afresh).
// Pure: time comes in as arguments, so the rules are tested without sleeps.
#include <chrono>
#include <map>
#include <optional>
#include <vector>

#include "client/list_kind.hpp"

namespace cafmcp::client_core {

class reload_scheduler {
public:
  using clock = std::chrono::steady_clock;
  struct policy {
    std::chrono::milliseconds initial_backoff{100};
    std::chrono::milliseconds max_backoff{5000};
    int attempts = 5;
  };
  struct outcome {
    bool start_now = false;                    // reload again at once
    std::optional<clock::time_point> retry_at; // or later, after a failure
    bool gave_up = false;                      // the last attempt failed
    int failures = 0;                          // failed attempts in a row
  };

  explicit reload_scheduler(policy p) : policy_(p) {}

  /// A notification: true when a reload should start now.
  bool notified(list_kind k);
  /// The reload of `k` ended.
  outcome finished(list_kind k, bool ok, clock::time_point now);
  /// Lists whose retry is due; they count as in flight from now.
  std::vector<list_kind> due(clock::time_point now);
  std::optional<clock::time_point> next_retry() const;
  bool busy(list_kind k) const;

private:
  struct state {
    bool in_flight = false;
    bool again = false; // notified while in flight
    int failures = 0;
    std::optional<clock::time_point> retry_at;
  };
  policy policy_;
  std::map<list_kind, state> states_;
};

} // namespace cafmcp::client_core

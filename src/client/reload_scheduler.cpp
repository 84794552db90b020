#include "client/reload_scheduler.hpp"

#include <algorithm>

namespace cafmcp::client_core {

bool reload_scheduler::notified(list_kind k) {
  auto& s = states_[k];
  if (s.retry_at) // the retry will fetch the newest list anyway
    return false;
  if (s.in_flight) {
    s.again = true;
    return false;
  }
  s.in_flight = true;
  return true;
}

reload_scheduler::outcome reload_scheduler::finished(list_kind k, bool ok, clock::time_point now) {
  auto& s = states_[k];
  s.in_flight = false;
  outcome out;
  if (ok) {
    s.failures = 0;
  } else if (++s.failures >= policy_.attempts) {
    out.gave_up = true;
    out.failures = s.failures;
    s.failures = 0;
  } else {
    out.failures = s.failures;
    auto backoff = policy_.initial_backoff * (1LL << std::min(s.failures - 1, 20));
    s.retry_at = now + std::min<std::chrono::milliseconds>(backoff, policy_.max_backoff);
    s.again = false; // the retry covers what arrived meanwhile
    out.retry_at = s.retry_at;
    return out;
  }
  if (s.again) {
    s.again = false;
    s.in_flight = true;
    out.start_now = true;
  }
  return out;
}

std::vector<list_kind> reload_scheduler::due(clock::time_point now) {
  std::vector<list_kind> ready;
  for (auto& [k, s] : states_)
    if (s.retry_at && *s.retry_at <= now) {
      s.retry_at.reset();
      s.in_flight = true;
      ready.push_back(k);
    }
  return ready;
}

std::optional<reload_scheduler::clock::time_point> reload_scheduler::next_retry() const {
  std::optional<clock::time_point> next;
  for (auto& [k, s] : states_)
    if (s.retry_at && (!next || *s.retry_at < *next))
      next = s.retry_at;
  return next;
}

bool reload_scheduler::busy(list_kind k) const {
  auto it = states_.find(k);
  return it != states_.end() && (it->second.in_flight || it->second.retry_at);
}

} // namespace cafmcp::client_core

#pragma once
// What every SSE history on one event loop may hold together
// (http_options::stream_history_budget_bytes, split evenly between the
// loops). A stream's own bounds (count, bytes, age) keep one history small;
// this keeps ten thousand of them from adding up. Over the budget, the
// oldest event of any history on the loop is discarded first, and a client
// asking for it gets 410, as for any other discarded event. Only that
// loop's thread touches it.
//
// Cost: each non-empty history is listed once in an ordered set, under an
// order no later than its oldest event's. A history discarding its own
// oldest event (the steady state of a full one: every delivery) leaves its
// listing as it is, so appends touch the set only when a history starts
// listed; enforcing brings a stale first listing up to date (one node
// moved, O(log histories), no allocation) before it drops the event it
// names. Every delivery moved a node before: ~300 instructions, and at
// 10,000 histories cache misses on a set that large.
#include <cstddef>
#include <cstdint>
#include <set>
#include <utility>

namespace cafmcp::http {

class event_store;

class history_budget {
public:
  explicit history_budget(std::size_t max_bytes) : max_bytes_(max_bytes) {}
  history_budget(const history_budget&) = delete;
  history_budget& operator=(const history_budget&) = delete;

  /// Each kept event counts its frame's bytes plus its own bookkeeping; a
  /// broadcast frame shared by many histories counts once in each, so this
  /// bounds memory from above.
  std::size_t bytes() const noexcept { return bytes_; }
  std::size_t max_bytes() const noexcept { return max_bytes_; }
  /// Events discarded to stay within the budget (not by their own stream's
  /// bounds).
  std::uint64_t discarded() const noexcept { return discarded_; }

private:
  friend class event_store;
  using front = std::pair<std::uint64_t, event_store*>; // (age order, history)

  std::uint64_t next_order() noexcept { return next_order_++; }
  void enforce();

  std::size_t max_bytes_;
  std::size_t bytes_ = 0;
  std::uint64_t next_order_ = 1;
  std::uint64_t discarded_ = 0;
  std::set<front> fronts_; // each non-empty history, by an order no later than its oldest event's
};

} // namespace cafmcp::http

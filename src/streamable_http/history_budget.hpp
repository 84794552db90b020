#pragma once
// What every SSE history on one event loop may hold together
// (http_options::stream_history_budget_bytes, split evenly between the
// loops). A stream's own bounds (count, bytes, age) keep one history small;
// this keeps ten thousand of them from adding up. Over the budget, the
// oldest event of any history on the loop is discarded first, and a client
// asking for it gets 410, as for any other discarded event. Only that
// loop's thread touches it.
//
// Cost: every event appended takes the next slot of an order log, which
// names the history holding it; a discarded event's slot empties, and
// empty slots at the front go. The log's first slot is thus always the
// oldest event of all, and enforcing the budget discards it in O(1), one
// read of a slot next to the last one read. Once 10,000 histories fill the
// budget every append discards another's oldest event: an ordered set of
// each history's oldest (before) moved one node per delivery, O(log n)
// and cache misses on a set that large. The price is 8 bytes a slot,
// counted in the budget: events still kept, and the slots of events gone
// that a kept older one holds back (a stream that went quiet keeps its
// last events; the log past them grows until the budget discards them).
#include <cstddef>
#include <cstdint>

#include <boost/container/deque.hpp>
#include <boost/container/options.hpp>

namespace cafmcp::http {

class event_store;

class history_budget {
public:
  explicit history_budget(std::size_t max_bytes) : max_bytes_(max_bytes) {}
  history_budget(const history_budget&) = delete;
  history_budget& operator=(const history_budget&) = delete;

  /// Each kept event counts its frame's bytes plus its own bookkeeping; a
  /// broadcast frame shared by many histories counts once in each, so this
  /// bounds memory from above. The order log's slots count too.
  std::size_t bytes() const noexcept { return events_bytes_ + log_.size() * sizeof(slot); }
  std::size_t max_bytes() const noexcept { return max_bytes_; }
  /// Events discarded to stay within the budget (not by their own stream's
  /// bounds).
  std::uint64_t discarded() const noexcept { return discarded_; }

private:
  friend class event_store;
  using slot = event_store*; // the history holding the event of that order; null: gone

  /// A slot for an event `history` appends; its order (1, 2, ...).
  std::uint64_t record(event_store* history) {
    log_.push_back(history);
    return first_order_ + log_.size() - 1;
  }
  /// The event of order `order` is gone, by whatever bound.
  void forget(std::uint64_t order) noexcept {
    log_[order - first_order_] = nullptr;
    while (!log_.empty() && !log_.front()) {
      log_.pop_front();
      ++first_order_;
    }
  }
  void enforce();

  std::size_t max_bytes_;
  std::size_t events_bytes_ = 0;
  std::uint64_t discarded_ = 0;
  // Orders first_order_ .. first_order_ + size - 1; the first slot is never
  // null. Boost's deque gives blocks back as the front moves; 4 KiB blocks,
  // one allocation per 512 appends.
  boost::container::deque<slot, void, boost::container::deque_options_t<boost::container::block_bytes<4096>>>
    log_;
  std::uint64_t first_order_ = 1;
};

} // namespace cafmcp::http

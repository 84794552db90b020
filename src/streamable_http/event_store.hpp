#pragma once
// The bounded history of one SSE stream, for Last-Event-ID replay. Bounded
// by count, bytes and age; asking for what was already discarded is an
// explicit "gone", never a silent partial replay.
#include <chrono>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <vector>

#include <boost/container/deque.hpp>

#include "cafmcp/transport.hpp"

#include "streamable_http/coarse_clock.hpp"
#include "streamable_http/history_budget.hpp"
#include "streamable_http/stream_mark.hpp"

namespace cafmcp::http {

class event_store {
public:
  using clock = std::chrono::steady_clock;
  // What discarding one reads (its order, its frame) first, with the next
  // one's time right after it: one line per event where it can.
  struct event {
    std::uint64_t seq;
    std::uint64_t order; // age among every history of its budget: its slot in the budget's log; 0: none
    frame data;
    clock::time_point at;
    stream_mark mark; // a clustered session's standalone stream only
  };

  /// Bytes count each frame in full, although a broadcast frame is shared
  /// by every session: the bound is on what this stream can pin. With a
  /// `budget`, the histories sharing it are bounded together as well (the
  /// oldest event of any of them goes first).
  event_store(std::size_t max_events, std::chrono::seconds max_age,
              std::size_t max_bytes = std::numeric_limits<std::size_t>::max(),
              std::shared_ptr<history_budget> budget = nullptr)
    : max_events_(max_events), max_bytes_(max_bytes), max_age_(max_age), budget_(std::move(budget)) {}
  // The budget knows each history by its address.
  event_store(const event_store&) = delete;
  event_store& operator=(const event_store&) = delete;
  ~event_store() { clear(); }

  /// Appends and returns its sequence number (1, 2, ...). Stamped with the
  /// coarse clock unless told (coarse_clock.hpp: once per delivery).
  std::uint64_t append(frame data, clock::time_point now = coarse_now(), stream_mark mark = {});

  /// Events after `seq`, or nullopt when some of them were discarded.
  std::optional<std::vector<event>> after(std::uint64_t seq, clock::time_point now = clock::now());

  /// Whatever is still kept after `seq`, gaps and all: for a fresh
  /// standalone stream, which promised no one a complete replay.
  std::vector<event> kept_after(std::uint64_t seq, clock::time_point now = clock::now());

  /// Calls `f` with each kept event after `seq`, oldest first, without
  /// trimming or copying; false (and no call) when some of them were
  /// discarded. Cheap when few follow `seq` (a live stream's next write).
  template <class F>
  bool each_after(std::uint64_t seq, F&& f) const {
    if (events_.empty() || seq + 1 >= next_)
      return seq < next_;
    if (seq + 1 < events_.front().seq)
      return false;
    for (auto i = static_cast<std::size_t>(seq + 1 - events_.front().seq); i < events_.size(); ++i)
      f(events_[i]);
    return true;
  }

  std::uint64_t last_seq() const noexcept { return next_ - 1; }
  std::size_t bytes() const noexcept { return bytes_; }
  std::size_t size() const noexcept { return events_.size(); }

  /// Discards every kept event (an ended session's histories serve no one).
  void clear();

private:
  friend class history_budget;
  void trim(clock::time_point now);
  void discard_oldest();
  // What an append reads and writes, together (a broadcast misses on
  // each line it touches, once per session). Boost's deque allocates
  // nothing until the first event (std::deque allocates its map and a
  // block, ~0.6 KiB, per history on construction: every session has one).
  // Not a ring: histories fill in lockstep under broadcasts, and a ring's
  // doubling copied every session's history in the same round (storm p99
  // +3-5 ms at 500 sessions).
  boost::container::deque<event> events_;
  std::uint64_t next_ = 1;
  std::size_t bytes_ = 0;
  // The oldest event's time, kept here: the age bound is checked on every
  // append, and the oldest event of a long history is far from the newest
  // in memory (a cache miss per delivery, with thousands of streams).
  clock::time_point oldest_at_ = clock::time_point::max();
  std::size_t max_events_;
  std::size_t max_bytes_;
  std::chrono::seconds max_age_;
  std::shared_ptr<history_budget> budget_;
};

} // namespace cafmcp::http

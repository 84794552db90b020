#pragma once
// The bounded history of one SSE stream, for Last-Event-ID replay. Bounded
// by count and age; asking for what was already discarded is an explicit
// "gone", never a silent partial replay.
#include <chrono>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "cafmcp/transport.hpp"

namespace cafmcp::http {

class event_store {
public:
  using clock = std::chrono::steady_clock;
  struct event {
    std::uint64_t seq;
    frame data;
    clock::time_point at;
  };

  event_store(std::size_t max_events, std::chrono::seconds max_age)
    : max_events_(max_events), max_age_(max_age) {}

  /// Appends and returns its sequence number (1, 2, ...).
  std::uint64_t append(frame data, clock::time_point now = clock::now());

  /// Events after `seq`, or nullopt when some of them were discarded.
  std::optional<std::vector<event>> after(std::uint64_t seq, clock::time_point now = clock::now());

  std::uint64_t last_seq() const noexcept { return next_ - 1; }

private:
  void trim(clock::time_point now);
  std::size_t max_events_;
  std::chrono::seconds max_age_;
  std::deque<event> events_;
  std::uint64_t next_ = 1;
};

} // namespace cafmcp::http

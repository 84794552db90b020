#pragma once
// The newest entries of a cluster's change log as one node read them, kept
// so that a session's GET stream, served until now by any node, resumes
// here: what the entries after the client's last event tell that session,
// numbered as the node that served it numbered them (session_replay.hpp).
// Bounded by count; asking for more than it keeps is an explicit "gone",
// never a partial replay. Pure and single-threaded: its owner locks.
#include <cstddef>
#include <deque>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cafmcp/transport.hpp"

#include "protocol/log_record.hpp"
#include "protocol/session_replay.hpp"

namespace cafmcp::protocol {

/// A mark after every message of its entry.
inline constexpr std::uint32_t whole_entry = std::numeric_limits<std::uint32_t>::max();

class recent_log {
public:
  explicit recent_log(std::size_t capacity) : capacity_(capacity) {}

  /// The entry at `at` (k unused), in log order. Its replica is not kept:
  /// a replay tells, it does not apply.
  void add(log_mark at, log_record r);

  struct replay {
    bool complete = false;                       // false: entries it needs are gone
    std::vector<std::pair<log_mark, json>> told; // in order, each after `after`
    log_mark upto;                               // everything up to here is told
  };
  /// What session `id` was told after `after`. `latest` is the newest
  /// record of the session this node knows and where it was logged (its
  /// state before the first entry kept here, when no record of it is).
  replay since(const std::string& id, log_mark after,
               const std::optional<std::pair<log_mark, session_record>>& latest, change_metadata meta) const;

  std::size_t size() const noexcept { return entries_.size(); }

private:
  std::size_t capacity_;
  std::deque<std::pair<log_mark, log_record>> entries_;
  std::optional<log_mark> dropped_; // the newest entry no longer kept
};

} // namespace cafmcp::protocol

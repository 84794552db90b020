#pragma once
// The registry's tools as any session may read them, so that a tools/call
// is planned and dispatched on its session's actor (and a quick handler run
// there) without a round trip through the server actor: two messages and
// a hand-off between threads fewer per call.
//
// The server actor writes; sessions read. An edition is immutable: a copy
// of the tool table, whose entries are shared (a copy of pointers, not of
// schemas), made only when a tools/call finds the last one stale, so a
// burst of tool changes copies nothing. Whether an edition is current is
// one atomic load. The server actor publishes the registry's count of tool
// changes right after it applies a mutation, before anyone can hear of the
// change (its notifications, its future, the answer to a call made after
// it): a request sent after that finds the count moved, takes the long way
// through the server actor, and the server actor makes a new edition.
//
// Readers keep their edition (one shared_ptr each, renewed when found
// stale), so reading costs no shared write per call. The price: a removed
// or replaced tool's entry, and what its handler captured, lives on until
// the last session that held an edition with it calls again or ends.
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "protocol/registry.hpp"

namespace cafmcp::actors {

class published_tools {
public:
  struct edition {
    std::uint64_t edits = 0; // registry::tool_edits when it was copied
    protocol::tool_index tools; // only searched: hashed
  };

  /// Server actor, after it applied anything to the registry: the count of
  /// tool changes, for readers to compare their edition with.
  void follow(const protocol::registry& reg);
  /// Server actor: makes an edition of `reg`'s tools unless the last is of
  /// them already.
  void refresh(const protocol::registry& reg);
  /// Any thread: the current edition, kept in `cached` (the reader's own,
  /// renewed when stale); null when the newest edition lags the registry.
  const edition* current(std::shared_ptr<const edition>& cached) const;

private:
  std::atomic<std::uint64_t> edits_{0};
  mutable std::mutex latest_mutex_; // taken once per reader per change, not per call
  std::shared_ptr<const edition> latest_;
};

} // namespace cafmcp::actors

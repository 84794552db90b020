#pragma once
// What one entry of a cluster's change log tells one session, computed from
// the entry and the session's subscriptions alone. The live notifier and a
// replay on a node that never served the session number the messages
// alike, so a stream resumed anywhere continues where the client left it,
// nothing twice. Pure: no actors, no log, no sockets.
#include <cstdint>
#include <string>
#include <vector>

#include "cafmcp/json.hpp"
#include "cafmcp/server_options.hpp"

#include "protocol/change.hpp"
#include "protocol/log_record.hpp"

namespace cafmcp::protocol {

/// A message's place among those one entry tells a session (log_mark::k).
/// Places need not be dense, only the same on every node and in order.
namespace entry_place {
inline constexpr std::uint32_t list_change = 0;
inline constexpr std::uint32_t updated = 1;
/// A resync: list_changed for each of resync_kinds (0, 1, 2), then
/// `updated` for each of the session's exact subscriptions, sorted.
inline constexpr std::uint32_t resync_updated_first = 3;
/// A message to this session alone (log_record::session_message).
inline constexpr std::uint32_t session_message = 0;
} // namespace entry_place

/// What a resync re-announces, in this order.
inline constexpr item_kind resync_kinds[] = {item_kind::resource, item_kind::tool, item_kind::prompt};

/// One session as a replay sees it: its subscriptions at the current entry.
struct session_view {
  std::vector<std::string> subscriptions; // URIs and template texts
  bool ended = false;
  /// Subscribed to `uri` exactly, or to a template that matches it.
  bool covers(const std::string& uri) const;
  /// Its subscriptions to exact URIs, sorted (a template's text has a '{',
  /// which no URI has).
  std::vector<std::string> exact() const;
};

struct told {
  std::uint32_t place;
  json message;
};

/// What `r` tells session `id`, whose state before it is `s`, in order. A
/// record of this session's own state updates `s`: it applies from the
/// next entry on.
std::vector<told> what_entry_tells(const log_record& r, const std::string& id, session_view& s,
                                   change_metadata meta);

} // namespace cafmcp::protocol

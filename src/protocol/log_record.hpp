#pragma once
// One entry of a cluster's change log, as every node reads it: who made the
// change (origin, a node's incarnation) and its place in that node's
// sequence, what to announce (a list change, a resource update, or a resync
// after changes were dropped), and the replica other nodes apply first.
// Encoded as JSON text; decoding text from the log never throws.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cafmcp/tracing.hpp"

#include "protocol/change.hpp"
#include "protocol/dispatch.hpp"
#include "protocol/session_record.hpp"

namespace cafmcp::protocol {

struct log_record {
  std::string origin;    // node id "/" incarnation
  std::uint64_t seq = 0; // 1, 2, ... per origin
  std::optional<change> list_change;
  std::optional<std::string> updated_uri;
  /// Changes were dropped before reaching the log (an outbox overflowed):
  /// every node tells every session to re-read everything.
  bool resync = false;
  json replica; // replica.hpp; null: nothing to apply elsewhere
  /// A 2025-11-25 session's state changed (record), or it ended (none).
  struct session_note {
    std::string id; // its Mcp-Session-Id
    std::optional<session_record> record;
  };
  std::optional<session_note> session;
  /// A node opened a session's GET stream: the last claim in the log owns
  /// it, and a node whose claim came earlier writes nothing more to it.
  struct stream_claim {
    std::string id;           // the session's Mcp-Session-Id
    std::uint64_t number = 0; // 1, 2, ... per origin
  };
  std::optional<stream_claim> claim;
  /// A client's answer to a server->client request that reached a node
  /// other than the one that asked: that node hands it to its handler.
  struct client_answer {
    std::string id;     // the session's Mcp-Session-Id
    std::string ask_id; // the id the asking node sent
    outcome answer;     // the result, or the client's error
  };
  std::optional<client_answer> answer;
  /// A message to one session's GET stream that is not a change (a
  /// request's cancellation): logged, so that whichever node serves the
  /// stream sends it, and any node replays it, in order with the changes.
  struct session_message {
    std::string id; // the session's Mcp-Session-Id
    json message;
  };
  std::optional<session_message> message;
  trace_context trace; // the mutation span, continued by each node
};

std::string encode(const log_record& r);
/// nullopt for text that is not a record (a foreign writer, damage).
std::optional<log_record> decode(std::string_view text);

} // namespace cafmcp::protocol

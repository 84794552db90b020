#pragma once
// What a cluster's other nodes need to serve a 2025-11-25 session that one
// node started: the negotiated version, the client's capabilities, its log
// level and its subscriptions. Logged whenever one of them changes, before
// the reply that changed it; pure, so every node reads it the same way.
#include <optional>
#include <string>
#include <vector>

#include "cafmcp/json.hpp"

namespace cafmcp::protocol {

struct session_record {
  std::string protocol_version;
  json client_capabilities = json::object();
  int log_level = 0;                      // cafmcp::log_level as an int
  std::vector<std::string> subscriptions; // URIs and template texts, sorted
  /// The verified subject that created the session (HTTP with a token
  /// verifier); empty: none. Another node serves the session only to it.
  std::string owner;
};

json to_json(const session_record& r);
/// nullopt for anything that is not a record.
std::optional<session_record> session_record_from(const json& j);

} // namespace cafmcp::protocol

#pragma once
// Pure judgements of single messages, unit-tested on their own.
#include <optional>
#include <string>
#include <string_view>

#include "cafmcp/json.hpp"

#include "foundation/json_member.hpp" // member_or: what servers send is read with it

namespace cafmcp::check {

/// Why `m` (a message whose method starts with "notifications/") is not a
/// well-formed JSON-RPC notification, or nullopt: jsonrpc "2.0", a string
/// method, no id, params an object or absent (never null, never an array).
std::optional<std::string> notification_shape_problem(const json& m);

/// True when a list_changed notification carries cafmcp's operation
/// metadata, in params (`operation`) or under params._meta["io.cafmcp/change"].
bool has_operation_metadata(const json& m);

/// True when `m`'s params name `key` (the added/removed item) anywhere:
/// lets a checker tell its own changes apart when a server says which.
bool mentions(const json& m, const std::string& key);

/// True for an RFC 3339 date-time as the tasks extension writes `createdAt`
/// and `lastUpdatedAt`: "2026-11-27T03:00:00Z", an optional fraction of
/// any length, "Z" or an offset "+01:00".
bool is_date_time(std::string_view s);

} // namespace cafmcp::check

#pragma once
// What the server actor tells the change notifier, and the notifications
// built from it. Built and serialized once per broadcast.
#include <optional>
#include <string>
#include <string_view>

#include "cafmcp/json.hpp"
#include "cafmcp/server_options.hpp"

namespace cafmcp::protocol {

enum class item_kind { resource, resource_template, tool, prompt };
enum class operation { added, removed, updated };

std::string_view to_string(item_kind k);
std::string_view to_string(operation op);
/// The inverse of to_string; nullopt for any other text.
std::optional<item_kind> item_kind_named(std::string_view name);
std::optional<operation> operation_named(std::string_view name);

/// One registry mutation as seen from outside.
struct change {
  item_kind kind = item_kind::resource;
  operation op = operation::added;
  std::string key; // uri, uriTemplate or name
  json descriptor; // the item's MCP descriptor (as it was, for removals)
};

/// `notifications/{resources,tools,prompts}/list_changed`.
std::string_view list_changed_method(item_kind k);

/// The cafmcp operation metadata object: {operation, uri|name, <kind>: descriptor}.
json operation_metadata(const change& c);

/// The whole notification message (jsonrpc, method, params) per `mode`.
json list_changed_notification(const change& c, change_metadata mode);

/// list_changed for kind `k` with no metadata: what a resync sends, when
/// which items changed is no longer known.
json plain_list_changed_notification(item_kind k);

/// `params._meta` of a notification, made (with `params`) when missing: where
/// trace context and subscription ids go.
json& notification_meta(json& notification);

/// `notifications/resources/updated` {uri}.
json resource_updated_notification(std::string_view uri);

/// The same message as the wire carries it: exactly
/// `jsonrpc::wire_text(resource_updated_notification(uri))`, written without
/// the tree (a stdio update spent ~3.5k of its ~53k instructions building and
/// printing it). For a broadcast with nothing to splice in (no span, no
/// listen stream).
std::string resource_updated_wire_text(std::string_view uri);

/// The `_meta` key carrying operation metadata for SDKs that strip params.
inline constexpr std::string_view change_meta_key = "io.cafmcp/change";

} // namespace cafmcp::protocol

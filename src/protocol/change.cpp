#include "protocol/change.hpp"

#include "cafmcp/json_rpc.hpp"

#include "foundation/json_write.hpp"

namespace cafmcp::protocol {

std::string_view to_string(item_kind k) {
  switch (k) {
    case item_kind::resource: return "resource";
    case item_kind::resource_template: return "resourceTemplate";
    case item_kind::tool: return "tool";
    case item_kind::prompt: return "prompt";
  }
  return "resource";
}

std::string_view to_string(operation op) {
  switch (op) {
    case operation::added: return "added";
    case operation::removed: return "removed";
    case operation::updated: return "updated";
  }
  return "updated";
}

std::optional<item_kind> item_kind_named(std::string_view name) {
  for (auto k : {item_kind::resource, item_kind::resource_template, item_kind::tool, item_kind::prompt})
    if (to_string(k) == name)
      return k;
  return std::nullopt;
}

std::optional<operation> operation_named(std::string_view name) {
  for (auto op : {operation::added, operation::removed, operation::updated})
    if (to_string(op) == name)
      return op;
  return std::nullopt;
}

std::string_view list_changed_method(item_kind k) {
  switch (k) {
    case item_kind::resource:
    case item_kind::resource_template: return "notifications/resources/list_changed";
    case item_kind::tool: return "notifications/tools/list_changed";
    case item_kind::prompt: return "notifications/prompts/list_changed";
  }
  return "notifications/resources/list_changed";
}

json operation_metadata(const change& c) {
  bool by_uri = c.kind == item_kind::resource || c.kind == item_kind::resource_template;
  json m = {{"operation", to_string(c.op)}};
  m[by_uri ? "uri" : "name"] = c.key;
  m[std::string(to_string(c.kind))] = c.descriptor;
  return m;
}

json list_changed_notification(const change& c, change_metadata mode) {
  json msg = plain_list_changed_notification(c.kind);
  if (mode == change_metadata::none)
    return msg;
  json meta = operation_metadata(c);
  json params = json::object();
  if (mode == change_metadata::params || mode == change_metadata::both)
    params = meta;
  if (mode == change_metadata::meta || mode == change_metadata::both)
    params["_meta"] = {{std::string(change_meta_key), std::move(meta)}};
  msg["params"] = std::move(params);
  return msg;
}

json plain_list_changed_notification(item_kind k) {
  return jsonrpc::notification_message(list_changed_method(k));
}

json& notification_meta(json& notification) {
  auto& params = notification["params"];
  if (!params.is_object())
    params = json::object();
  auto& meta = params["_meta"];
  if (!meta.is_object())
    meta = json::object();
  return meta;
}

json resource_updated_notification(std::string_view uri) {
  json params(json::value_t::object);
  params.emplace("uri", uri);
  return jsonrpc::notification_message("notifications/resources/updated", std::move(params));
}

std::string resource_updated_wire_text(std::string_view uri) {
  // Members in the order wire_text() prints an object's: sorted by key.
  constexpr std::string_view head =
    R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":)";
  std::string out;
  out.reserve(head.size() + uri.size() + 4);
  out += head;
  append_json_string(out, uri);
  out += "}}";
  return out;
}

} // namespace cafmcp::protocol

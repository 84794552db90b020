#include "protocol/listen.hpp"

#include "cafmcp/json_rpc.hpp"

#include "protocol/stateless.hpp"

namespace cafmcp::protocol {
namespace {

jsonrpc::error bad(std::string msg, std::optional<json> data = std::nullopt) {
  return {jsonrpc::code::invalid_params, "subscriptions/listen: " + std::move(msg), std::move(data)};
}

// Stands in for the id while serializing; never produced by a real value
// (control characters are escaped, so its dumped form is unambiguous).
constexpr std::string_view placeholder = "\x01"
                                         "cafmcp-subscription-id"
                                         "\x01";

} // namespace

bool listen_filter::wants(item_kind k) const {
  switch (k) {
    case item_kind::tool: return tools;
    case item_kind::prompt: return prompts;
    case item_kind::resource:
    case item_kind::resource_template: return resources;
  }
  return false;
}

std::variant<listen_filter, jsonrpc::error> read_listen_filter(const json& params, std::size_t max_uris) {
  listen_filter f;
  if (!params.is_object() || !params.contains("notifications"))
    return f; // every field is optional: an empty filter is valid
  const auto& n = params["notifications"];
  if (!n.is_object())
    return bad("notifications must be an object");
  auto flag = [&](const char* name, bool& out) -> bool {
    auto it = n.find(name);
    if (it == n.end())
      return true;
    if (!it->is_boolean())
      return false;
    out = it->get<bool>();
    return true;
  };
  if (!flag("toolsListChanged", f.tools) || !flag("promptsListChanged", f.prompts)
      || !flag("resourcesListChanged", f.resources))
    return bad("the *ListChanged fields must be booleans");
  auto strings = [&](const char* name, const char* what, std::vector<std::string>& out) -> std::optional<jsonrpc::error> {
    auto it = n.find(name);
    if (it == n.end())
      return std::nullopt;
    if (!it->is_array())
      return bad(std::string(name) + " must be an array of " + what);
    if (it->size() > max_uris)
      return bad("too many " + std::string(name) + " (" + std::to_string(it->size()) + "; limit "
                   + std::to_string(max_uris) + " per listener)",
                 json{{"limit", max_uris}});
    for (auto& u : *it) {
      if (!u.is_string())
        return bad(std::string(name) + " must be an array of " + what);
      out.push_back(u.get<std::string>());
    }
    return std::nullopt;
  };
  if (auto err = strings("resourceSubscriptions", "URIs", f.uris))
    return *err;
  if (auto err = strings("taskIds", "task ids", f.task_ids))
    return *err;
  return f;
}

json listen_acknowledgement(const listen_filter& honoured, const json& id) {
  json n = json::object();
  if (honoured.tools)
    n["toolsListChanged"] = true;
  if (honoured.prompts)
    n["promptsListChanged"] = true;
  if (honoured.resources)
    n["resourcesListChanged"] = true;
  if (!honoured.uris.empty())
    n["resourceSubscriptions"] = honoured.uris;
  if (!honoured.task_ids.empty())
    n["taskIds"] = honoured.task_ids;
  return jsonrpc::notification_message(
    "notifications/subscriptions/acknowledged",
    {{"_meta", {{std::string(meta_subscription_id), id}}}, {"notifications", n}});
}

json listen_completion(const json& id) {
  return {{"_meta", {{std::string(meta_subscription_id), id}}}, {"resultType", "complete"}};
}

json task_notification(json detailed_task) {
  detailed_task.erase("resultType");
  return jsonrpc::notification_message("notifications/tasks", std::move(detailed_task));
}

std::string spliced_notification::with(std::string_view id_json) const {
  std::string out;
  out.reserve(prefix.size() + id_json.size() + suffix.size());
  out.append(prefix).append(id_json).append(suffix);
  return out;
}

spliced_notification splice_subscription_id(json notification) {
  notification_meta(notification)[std::string(meta_subscription_id)] = std::string(placeholder);
  auto text = jsonrpc::wire_text(notification);
  auto marker = jsonrpc::wire_text(json(std::string(placeholder))); // its quoted, escaped form
  auto at = text.find(marker);
  return {text.substr(0, at), text.substr(at + marker.size())};
}

} // namespace cafmcp::protocol

#include "protocol/replica.hpp"

#include <optional>
#include <vector>

#include "foundation/json_member.hpp"

namespace cafmcp::protocol {
namespace {

std::optional<std::string> optional_text(const json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_string())
    return std::nullopt;
  return it->get<std::string>();
}

json member_json(const json& j, const char* key) {
  auto it = j.find(key);
  return it == j.end() ? json() : *it;
}

resource_contents contents_from(const json& j) {
  resource_contents c;
  c.uri = member_or<std::string>(j, "uri", "");
  c.mime_type = optional_text(j, "mimeType");
  c.blob = optional_text(j, "blob");
  if (!c.blob)
    c.text = member_or<std::string>(j, "text", "");
  c.meta = member_json(j, "_meta");
  return c;
}

std::vector<resource_contents> contents_list(const json& j) {
  std::vector<resource_contents> out;
  if (j.is_array())
    for (auto& c : j)
      if (c.is_object())
        out.push_back(contents_from(c));
  return out;
}

json contents_json(const std::vector<resource_contents>& contents) {
  json list = json::array();
  for (auto& c : contents)
    list.push_back(c.to_json());
  return list;
}

resource resource_from(const json& j) {
  resource r;
  r.uri = member_or<std::string>(j, "uri", "");
  r.name = member_or<std::string>(j, "name", "");
  r.title = optional_text(j, "title");
  r.description = optional_text(j, "description");
  r.mime_type = optional_text(j, "mimeType");
  r.annotations = member_json(j, "annotations");
  if (auto it = j.find("size"); it != j.end() && it->is_number_unsigned())
    r.size = it->get<std::uint64_t>();
  r.icons = member_json(j, "icons");
  r.meta = member_json(j, "_meta");
  r.list_order = member_or<std::string>(j, "listOrder", "");
  r.contents = contents_list(member_json(j, "contents"));
  return r;
}

mutation_effect remove(registry& reg, item_kind kind, const std::string& key) {
  switch (kind) {
    case item_kind::resource: return remove_resource(reg, key);
    case item_kind::resource_template: return remove_template(reg, key);
    case item_kind::tool: return remove_tool(reg, key);
    case item_kind::prompt: return remove_prompt(reg, key);
  }
  return {};
}

mutation_effect not_a_replica() {
  mutation_effect e;
  e.problem = "not a replica";
  return e;
}

} // namespace

json replica_of(const registry& reg, const mutation_effect& effect) {
  if (!effect.applied)
    return nullptr;
  const auto& c = effect.list_change;
  if (c && c->op == operation::removed)
    return {{"remove", {{"kind", to_string(c->kind)}, {"key", c->key}}}};
  if (c && c->kind != item_kind::resource)
    return nullptr; // templates, tools and prompts carry code
  const std::string* uri = c ? &c->key : effect.updated_uri ? &*effect.updated_uri : nullptr;
  if (!uri)
    return nullptr;
  auto it = reg.resources.find(*uri);
  if (it == reg.resources.end() || it->second.reader)
    return nullptr;
  const auto& r = it->second;
  json j = r.descriptor();
  j["listOrder"] = r.list_order;
  j["contents"] = contents_json(r.contents);
  return {{"put", std::move(j)}};
}

mutation_effect apply_replica(registry& reg, const json& replica) {
  if (!replica.is_object())
    return not_a_replica();
  if (auto it = replica.find("put"); it != replica.end() && it->is_object())
    return add_resource(reg, resource_from(*it));
  if (auto it = replica.find("remove"); it != replica.end() && it->is_object())
    if (auto kind = item_kind_named(member_or<std::string>(*it, "kind", "")))
      return remove(reg, *kind, member_or<std::string>(*it, "key", ""));
  return not_a_replica();
}

} // namespace cafmcp::protocol

#include "client/descriptor_list.hpp"

#include <algorithm>
#include <set>

namespace cafmcp::client_core {

std::string descriptor_list::key_of(const json& d) const {
  auto it = d.find(std::string(key_field(kind_)));
  return it != d.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool descriptor_list::contains(const std::string& key) const {
  return std::any_of(items_.begin(), items_.end(), [&](const json& d) { return key_of(d) == key; });
}

std::vector<std::string> descriptor_list::replace(std::vector<json> fresh) {
  std::set<std::string> kept;
  for (const auto& d : fresh)
    kept.insert(key_of(d));
  std::vector<std::string> gone;
  for (const auto& d : items_)
    if (!kept.count(key_of(d)))
      gone.push_back(key_of(d));
  items_ = std::move(fresh);
  return gone;
}

std::optional<std::string> descriptor_list::apply(std::string_view operation, const std::string& key,
                                                  const json& descriptor) {
  auto it = std::find_if(items_.begin(), items_.end(), [&](const json& d) { return key_of(d) == key; });
  if (operation == "removed") {
    if (it == items_.end())
      return std::nullopt;
    items_.erase(it);
    return key;
  }
  if (it != items_.end())
    *it = descriptor;
  else
    items_.push_back(descriptor);
  return std::nullopt;
}

std::vector<list_kind> lists_for(std::string_view method) {
  if (method == "notifications/tools/list_changed")
    return {list_kind::tools};
  if (method == "notifications/prompts/list_changed")
    return {list_kind::prompts};
  if (method == "notifications/resources/list_changed")
    return {list_kind::resources, list_kind::resource_templates};
  return {};
}

std::optional<list_change> parse_list_change(std::string_view method, const json& params) {
  if (!params.is_object())
    return std::nullopt;
  const json* m = &params;
  if (!params.contains("operation")) {
    auto meta = params.find("_meta");
    if (meta == params.end() || !meta->is_object() || !meta->contains("io.cafmcp/change"))
      return std::nullopt;
    m = &(*meta)["io.cafmcp/change"];
  }
  if (!m->is_object() || !(*m)["operation"].is_string())
    return std::nullopt;
  list_change c;
  c.operation = (*m)["operation"];
  if (c.operation != "added" && c.operation != "removed" && c.operation != "updated")
    return std::nullopt;
  // Which list, and under which field the descriptor travels.
  struct form {
    list_kind kind;
    const char* key;
    const char* descriptor;
  };
  std::vector<form> forms;
  if (method == "notifications/tools/list_changed")
    forms = {{list_kind::tools, "name", "tool"}};
  else if (method == "notifications/prompts/list_changed")
    forms = {{list_kind::prompts, "name", "prompt"}};
  else if (method == "notifications/resources/list_changed")
    forms = {{list_kind::resources, "uri", "resource"},
             {list_kind::resource_templates, "uri", "resourceTemplate"}};
  for (const auto& f : forms) {
    auto d = m->find(f.descriptor);
    auto k = m->find(f.key);
    if (d == m->end() || !d->is_object() || k == m->end() || !k->is_string())
      continue;
    c.kind = f.kind;
    c.key = *k;
    c.descriptor = *d;
    return c;
  }
  return std::nullopt;
}

} // namespace cafmcp::client_core

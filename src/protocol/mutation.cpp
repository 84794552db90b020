#include "protocol/mutation.hpp"

namespace cafmcp::protocol {
namespace {

mutation_effect rejected(std::string why) {
  mutation_effect e;
  e.problem = std::move(why);
  return e;
}

mutation_effect listed(item_kind kind, operation op, std::string key, json descriptor) {
  mutation_effect e;
  e.applied = true;
  e.list_change = change{kind, op, std::move(key), std::move(descriptor)};
  return e;
}

bool same_contents(const std::vector<resource_contents>& a, const std::vector<resource_contents>& b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].to_json() != b[i].to_json())
      return false;
  return true;
}

template <class Map>
mutation_effect remove_keyed(Map& items, item_kind kind, const std::string& key, auto describe) {
  auto it = items.find(key);
  if (it == items.end())
    return rejected("no such " + std::string(to_string(kind)) + ": " + key);
  json descriptor = describe(it->second);
  items.erase(it);
  return listed(kind, operation::removed, key, std::move(descriptor));
}

// Insert or replace; a replacement with an identical descriptor is applied
// silently (nothing a client lists has changed).
template <class Map, class Entry, class Describe>
mutation_effect upsert(Map& items, item_kind kind, const std::string& key, Entry entry, Describe describe) {
  json d = describe(entry);
  auto it = items.find(key);
  bool existed = it != items.end();
  bool same = existed && describe(it->second) == d;
  items.insert_or_assign(key, std::move(entry));
  if (same) {
    mutation_effect e;
    e.applied = true;
    return e;
  }
  return listed(kind, existed ? operation::updated : operation::added, key, std::move(d));
}

std::shared_ptr<const schema_validator> compile(const json& schema) {
  return std::make_shared<const schema_validator>(schema);
}

} // namespace

mutation_effect add_resource(registry& reg, resource r) {
  if (r.uri.empty() || r.name.empty())
    return rejected("a resource needs a uri and a name");
  auto key = r.uri;
  auto it = reg.resources.find(key);
  if (it == reg.resources.end()) {
    json d = r.descriptor();
    reg.resource_listing.emplace(listing_key(r), key);
    reg.resources.emplace(key, std::move(r));
    return listed(item_kind::resource, operation::added, key, std::move(d));
  }
  // A replacement: the descriptor and the content may each have changed,
  // and each change has its own notification.
  mutation_effect e;
  e.applied = true;
  json before = it->second.descriptor();
  json after = r.descriptor();
  if (before != after)
    e.list_change = change{item_kind::resource, operation::updated, key, after};
  if (!same_contents(it->second.contents, r.contents) || r.reader)
    e.updated_uri = key;
  reg.resource_listing.erase(listing_key(it->second));
  reg.resource_listing.emplace(listing_key(r), key);
  it->second = std::move(r);
  return e;
}

mutation_effect remove_resource(registry& reg, const std::string& uri) {
  if (auto it = reg.resources.find(uri); it != reg.resources.end())
    reg.resource_listing.erase(listing_key(it->second));
  return remove_keyed(reg.resources, item_kind::resource, uri,
                      [](const resource& r) { return r.descriptor(); });
}

mutation_effect set_resource_contents(registry& reg, const std::string& uri,
                                      std::vector<resource_contents> contents) {
  auto it = reg.resources.find(uri);
  if (it == reg.resources.end())
    return rejected("no such resource: " + uri);
  mutation_effect e;
  e.applied = true;
  e.updated_uri = uri;
  it->second.contents = std::move(contents);
  return e;
}

mutation_effect add_template(registry& reg, resource_template t) {
  if (t.name.empty())
    return rejected("a resource template needs a name");
  std::optional<uri_template> compiled;
  try {
    compiled.emplace(t.uri_template);
  } catch (const std::exception& ex) {
    return rejected(std::string("invalid uriTemplate: ") + ex.what());
  }
  auto key = t.uri_template;
  return upsert(reg.templates, item_kind::resource_template, key,
                template_entry{std::move(t), std::move(*compiled)},
                [](const template_entry& e) { return e.spec.descriptor(); });
}

mutation_effect remove_template(registry& reg, const std::string& uri_template) {
  return remove_keyed(reg.templates, item_kind::resource_template, uri_template,
                      [](const template_entry& t) { return t.spec.descriptor(); });
}

mutation_effect add_tool(registry& reg, tool t) {
  if (!valid_tool_name(t.name))
    return rejected("invalid tool name (1-128 of A-Z a-z 0-9 _ . -): " + t.name);
  if (!t.input_schema.is_object())
    return rejected("tool " + t.name + ": inputSchema must be an object");
  if (t.async_handler && t.handler)
    return rejected("tool " + t.name + ": a handler or an async_handler, not both");
  if (t.async_handler && t.tasks != task_support::forbidden)
    return rejected("tool " + t.name + ": an async_handler cannot run as a task");
  auto entry = std::make_shared<tool_entry>();
  try {
    entry->input = compile(t.input_schema);
    if (t.output_schema)
      entry->output = compile(*t.output_schema);
  } catch (const std::exception& ex) {
    return rejected("tool " + t.name + ": " + ex.what());
  }
  auto key = t.name;
  entry->spec = std::move(t);
  auto effect = upsert(reg.tools, item_kind::tool, key, std::shared_ptr<const tool_entry>(std::move(entry)),
                       [](const std::shared_ptr<const tool_entry>& e) { return e->spec.descriptor(); });
  ++reg.tool_edits;
  return effect;
}

mutation_effect remove_tool(registry& reg, const std::string& name) {
  auto effect = remove_keyed(reg.tools, item_kind::tool, name,
                             [](const std::shared_ptr<const tool_entry>& t) { return t->spec.descriptor(); });
  if (effect.applied)
    ++reg.tool_edits;
  return effect;
}

mutation_effect add_prompt(registry& reg, prompt p) {
  if (p.name.empty())
    return rejected("a prompt needs a name");
  auto key = p.name;
  return upsert(reg.prompts, item_kind::prompt, key, std::move(p),
                [](const prompt& e) { return e.descriptor(); });
}

mutation_effect remove_prompt(registry& reg, const std::string& name) {
  return remove_keyed(reg.prompts, item_kind::prompt, name, [](const prompt& p) { return p.descriptor(); });
}

} // namespace cafmcp::protocol

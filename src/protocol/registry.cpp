#include "protocol/registry.hpp"

namespace cafmcp::protocol {

const template_entry* registry::match_template(const std::string& uri) const {
  for (auto& [key, entry] : templates)
    if (entry.compiled.match(uri))
      return &entry;
  return nullptr;
}

bool registry::knows_uri(const std::string& uri) const {
  return resources.count(uri) > 0 || match_template(uri) != nullptr;
}

std::string listing_key(const resource& r) { return r.list_order + '\x1f' + r.uri; }

bool valid_tool_name(std::string_view name) {
  if (name.empty() || name.size() > 128)
    return false;
  for (char c : name) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'
              || c == '.' || c == '-';
    if (!ok)
      return false;
  }
  return true;
}

bool registry::offers_tasks() const {
  for (auto& [name, t] : tools)
    if (t->spec.tasks != task_support::forbidden)
      return true;
  return false;
}

} // namespace cafmcp::protocol

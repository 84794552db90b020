#pragma once
// A batch's spans and groups sorted into their instrumentation scopes, in
// order of first appearance: what every OTLP encoding writes per scope.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "cafmcp/otel/span_data.hpp"

namespace cafmcp::otel::detail {

struct scope_items {
  const std::string* name;
  const std::string* version; // empty: none
  std::vector<const span_data*> spans;
  std::vector<const span_group*> groups;
};

// A process has a handful of scopes, so a linear search beats a map. Only
// pointers are kept: a broadcast's group is written once, not copied.
inline std::vector<scope_items> by_scope(const std::string& default_scope,
                                         const std::vector<span_data>& spans,
                                         const std::vector<std::unique_ptr<span_group>>& groups) {
  static const std::string no_version;
  std::vector<scope_items> scopes;
  auto scope_of = [&](const span_data& s) -> scope_items& {
    const std::string* name = s.scope ? &s.scope->name : &default_scope;
    const std::string* version = s.scope ? &s.scope->version : &no_version;
    auto it = std::find_if(scopes.begin(), scopes.end(),
                           [&](const scope_items& g) { return *g.name == *name && *g.version == *version; });
    if (it == scopes.end())
      it = scopes.insert(scopes.end(), scope_items{name, version, {}, {}});
    return *it;
  };
  for (auto& s : spans)
    scope_of(s).spans.push_back(&s);
  for (auto& g : groups)
    if (!g->members.empty())
      scope_of(g->common).groups.push_back(g.get());
  return scopes;
}

} // namespace cafmcp::otel::detail

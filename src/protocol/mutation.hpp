#pragma once
// Registry mutations as pure functions: apply one, and say what the world
// must be told (a list_changed with operation metadata, a resources/updated).
#include <optional>
#include <string>
#include <vector>

#include "protocol/change.hpp"
#include "protocol/registry.hpp"

namespace cafmcp::protocol {

struct mutation_effect {
  bool applied = false;                   // false: invalid or nothing to do
  std::optional<change> list_change;      // -> list_changed to every session
  std::optional<std::string> updated_uri; // -> resources/updated to subscribers
  std::string problem;                    // why not applied (for logs)
};

mutation_effect add_resource(registry& reg, resource r);
mutation_effect remove_resource(registry& reg, const std::string& uri);
mutation_effect set_resource_contents(registry& reg, const std::string& uri,
                                      std::vector<resource_contents> contents);
mutation_effect add_template(registry& reg, resource_template t);
mutation_effect remove_template(registry& reg, const std::string& uri_template);
mutation_effect add_tool(registry& reg, tool t);
mutation_effect remove_tool(registry& reg, const std::string& name);
mutation_effect add_prompt(registry& reg, prompt p);
mutation_effect remove_prompt(registry& reg, const std::string& name);

} // namespace cafmcp::protocol

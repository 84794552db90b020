#pragma once
// The four descriptor lists a client keeps.
#include <array>
#include <string_view>

namespace cafmcp::client_core {

enum class list_kind { tools, resources, resource_templates, prompts };
inline constexpr std::array<list_kind, 4> all_list_kinds = {
  list_kind::tools, list_kind::resources, list_kind::resource_templates, list_kind::prompts};

std::string_view list_method(list_kind k);  // "tools/list" ...
std::string_view result_field(list_kind k); // "tools", "resources", "resourceTemplates", "prompts"
std::string_view key_field(list_kind k);    // "name", "uri", "uriTemplate", "name"
std::string_view to_string(list_kind k);

} // namespace cafmcp::client_core

#include "client/list_kind.hpp"

namespace cafmcp::client_core {

std::string_view list_method(list_kind k) {
  switch (k) {
    case list_kind::tools: return "tools/list";
    case list_kind::resources: return "resources/list";
    case list_kind::resource_templates: return "resources/templates/list";
    case list_kind::prompts: return "prompts/list";
  }
  return "tools/list";
}

std::string_view result_field(list_kind k) {
  switch (k) {
    case list_kind::tools: return "tools";
    case list_kind::resources: return "resources";
    case list_kind::resource_templates: return "resourceTemplates";
    case list_kind::prompts: return "prompts";
  }
  return "tools";
}

std::string_view key_field(list_kind k) {
  switch (k) {
    case list_kind::resources: return "uri";
    case list_kind::resource_templates: return "uriTemplate";
    default: return "name";
  }
}

std::string_view to_string(list_kind k) { return result_field(k); }

} // namespace cafmcp::client_core

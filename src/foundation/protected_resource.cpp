#include <algorithm>

#include "cafmcp/auth.hpp"

namespace cafmcp::auth {

json metadata_document(const protected_resource& pr) {
  json doc{{"resource", pr.resource},
           {"authorization_servers", pr.authorization_servers},
           {"bearer_methods_supported", json::array({"header"})}};
  auto scopes = pr.scopes_supported;
  for (auto& s : pr.required_scopes)
    if (std::find(scopes.begin(), scopes.end(), s) == scopes.end())
      scopes.push_back(s);
  if (!scopes.empty())
    doc["scopes_supported"] = scopes;
  if (pr.resource_name)
    doc["resource_name"] = *pr.resource_name;
  if (pr.resource_documentation)
    doc["resource_documentation"] = *pr.resource_documentation;
  return doc;
}

} // namespace cafmcp::auth

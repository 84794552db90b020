#include "auth/resource_discovery.hpp"

#include <set>
#include <sstream>
#include <stdexcept>

namespace cafmcp::auth::detail {
namespace {

std::string path_of(const std::string& url) {
  auto path = url.substr(origin_of(url).size());
  if (auto q = path.find_first_of("?#"); q != std::string::npos)
    path.resize(q);
  while (!path.empty() && path.back() == '/')
    path.pop_back();
  return path;
}

} // namespace

std::string origin_of(const std::string& url) {
  auto scheme = url.find("://");
  auto path = scheme == std::string::npos ? std::string::npos : url.find('/', scheme + 3);
  return path == std::string::npos ? url : url.substr(0, path);
}

std::string json_text(const json& doc, const char* name) {
  auto it = doc.find(name);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string merged_scopes(const std::string& a, const std::string& b) {
  std::set<std::string> seen;
  std::string out;
  for (auto* list : {&a, &b}) {
    std::istringstream words(*list);
    for (std::string w; words >> w;)
      if (seen.insert(w).second)
        out += (out.empty() ? "" : " ") + w;
  }
  return out;
}

resource_discovery discover_resource(const auth_challenge& why, const as_client& http, const fetch_options& how) {
  auto origin = origin_of(why.server_url), path = path_of(why.server_url);
  std::vector<std::string> tries;
  if (!why.resource_metadata.empty())
    tries.push_back(why.resource_metadata);
  if (!path.empty())
    tries.push_back(origin + "/.well-known/oauth-protected-resource" + path);
  tries.push_back(origin + "/.well-known/oauth-protected-resource");
  std::optional<json> prm;
  std::string failure;
  for (auto& url : tries)
    if ((prm = http.get_json(url, failure)))
      break;
  resource_discovery d;
  if (!prm) { // 2025-03-26: the server is its own authorization server
    // Its metadata at its origin is authoritative there, whatever issuer
    // it names (a prefixed one, often); no metadata: the default endpoints.
    if (auto md = http.get_json(origin + "/.well-known/oauth-authorization-server", failure)) {
      d.as = metadata_from(std::move(*md));
    } else {
      d.as_metadata = false;
      d.as.issuer = origin;
      d.as.authorization_endpoint = origin + "/authorize";
      d.as.token_endpoint = origin + "/token";
      d.as.registration_endpoint = origin + "/register";
    }
    return d;
  }
  d.resource = json_text(*prm, "resource");
  if (d.resource.empty() || origin_of(d.resource) != origin)
    throw std::runtime_error("protected resource metadata names resource '" + d.resource + "', not one of " + origin);
  if (auto s = prm->find("scopes_supported"); s != prm->end() && s->is_array())
    for (auto& v : *s)
      if (v.is_string())
        d.scopes_supported.push_back(v.get<std::string>());
  auto servers = prm->find("authorization_servers");
  if (servers == prm->end() || !servers->is_array() || servers->empty() || !(*servers)[0].is_string())
    throw std::runtime_error("protected resource metadata names no authorization server");
  d.as = discover_authorization_server((*servers)[0].get<std::string>(), how);
  return d;
}

} // namespace cafmcp::auth::detail

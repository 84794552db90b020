// RFC 8414 puts the well-known segment between the issuer's host and its
// path; OpenID Connect Discovery appends it. Authorization servers serve
// one or the other (oidc-provider: both), so both are tried in that order.
#include "auth/as_client.hpp"

#include <stdexcept>

namespace cafmcp::auth {
namespace {

std::string text(const json& doc, const char* name) {
  auto it = doc.find(name);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::vector<std::string> candidates(const std::string& issuer) {
  auto scheme = issuer.find("://");
  auto path_at = scheme == std::string::npos ? std::string::npos : issuer.find('/', scheme + 3);
  std::string origin = path_at == std::string::npos ? issuer : issuer.substr(0, path_at);
  std::string path = path_at == std::string::npos ? std::string() : issuer.substr(path_at);
  while (!path.empty() && path.back() == '/')
    path.pop_back();
  std::vector<std::string> out{origin + "/.well-known/oauth-authorization-server" + path,
                               origin + path + "/.well-known/openid-configuration"};
  if (!path.empty())
    out.push_back(origin + "/.well-known/openid-configuration" + path);
  return out;
}

} // namespace

namespace detail {

authorization_server_metadata metadata_from(json doc) {
  authorization_server_metadata md;
  md.issuer = text(doc, "issuer");
  md.jwks_uri = text(doc, "jwks_uri");
  md.introspection_endpoint = text(doc, "introspection_endpoint");
  md.token_endpoint = text(doc, "token_endpoint");
  md.authorization_endpoint = text(doc, "authorization_endpoint");
  md.registration_endpoint = text(doc, "registration_endpoint");
  if (auto s = doc.find("scopes_supported"); s != doc.end() && s->is_array())
    for (auto& v : *s)
      if (v.is_string())
        md.scopes_supported.push_back(v.get<std::string>());
  md.document = std::move(doc);
  return md;
}

} // namespace detail

authorization_server_metadata discover_authorization_server(const std::string& issuer, const fetch_options& how) {
  detail::as_client as(how);
  std::string why, all;
  for (auto& url : candidates(issuer)) {
    auto doc = as.get_json(url, why);
    if (!doc) {
      all += (all.empty() ? "" : "; ") + why;
      continue;
    }
    auto md = detail::metadata_from(std::move(*doc));
    if (md.issuer != issuer) // RFC 8414 section 3.3: a mismatch must not be used
      throw std::runtime_error("authorization server metadata at " + url + " names issuer '" + md.issuer
                               + "', not '" + issuer + "'");
    return md;
  }
  throw std::runtime_error("no authorization server metadata for " + issuer + ": " + all);
}

} // namespace cafmcp::auth

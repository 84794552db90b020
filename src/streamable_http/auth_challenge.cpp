#include "streamable_http/auth_challenge.hpp"

#include <algorithm>

#include "cafmcp/auth.hpp"
#include "cafmcp/json_rpc.hpp"

#include "foundation/ascii_case.hpp"

namespace cafmcp::http {
namespace {

constexpr std::string_view well_known = "/.well-known/oauth-protected-resource";

// RFC 6750 3: error_description and scope are quoted strings of printable
// ASCII without '"' and '\'.
std::string quotable(std::string_view s) {
  std::string out;
  for (char c : s)
    if (c >= 0x20 && c <= 0x7e && c != '"' && c != '\\')
      out += c;
  return out;
}

std::string joined(const std::vector<std::string>& scopes) {
  std::string out;
  for (auto& s : scopes)
    out += (out.empty() ? "" : " ") + s;
  return out;
}

// RFC 9728 3.1: the well-known segment goes between the resource's origin
// and its path (a trailing slash dropped).
std::string metadata_url_of(const std::string& resource) {
  auto scheme = resource.find("://");
  auto path_at = scheme == std::string::npos ? std::string::npos : resource.find('/', scheme + 3);
  std::string origin = path_at == std::string::npos ? resource : resource.substr(0, path_at);
  std::string path = path_at == std::string::npos ? std::string() : resource.substr(path_at);
  if (auto q = path.find_first_of("?#"); q != std::string::npos)
    path.resize(q);
  while (!path.empty() && path.back() == '/')
    path.pop_back();
  return origin + std::string(well_known) + path;
}

} // namespace

std::optional<std::string_view> bearer_token_of(std::optional<std::string_view> authorization) {
  if (!authorization || authorization->size() < 7)
    return std::nullopt;
  if (!ascii_iequals(authorization->substr(0, 7), "bearer "))
    return std::nullopt;
  auto token = authorization->substr(7);
  while (!token.empty() && token.front() == ' ')
    token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ')
    token.remove_suffix(1);
  if (token.empty())
    return std::nullopt;
  return token;
}

std::optional<std::vector<std::string>> insufficient_scopes_in(std::string_view answer) {
  if (jsonrpc::answer_error_code(answer) != jsonrpc::code::insufficient_scope)
    return std::nullopt; // every other answer stops here, unparsed
  auto reply = json::parse(answer, nullptr, false);
  if (!reply.is_object() || !reply.contains("error") || !reply["error"].is_object())
    return std::nullopt;
  auto& err = reply["error"];
  if (!err.contains("code") || err["code"] != jsonrpc::code::insufficient_scope)
    return std::nullopt;
  std::vector<std::string> scopes;
  if (err.contains("data") && err["data"].is_object() && err["data"].contains("requiredScopes")
      && err["data"]["requiredScopes"].is_array())
    for (auto& s : err["data"]["requiredScopes"])
      if (s.is_string())
        scopes.push_back(s.get<std::string>());
  return scopes;
}

auth_surface auth_surface::from(const http_options& o) {
  auth_surface a;
  a.enabled_ = o.token_verifier != nullptr || o.bearer_token.has_value();
  if (!o.protected_resource)
    return a;
  const auto& pr = *o.protected_resource;
  a.metadata_url_ = metadata_url_of(pr.resource);
  a.paths_ = {std::string(well_known), std::string(well_known) + o.path};
  // The resource's own path may differ from ours behind a proxy: serve
  // that suffix too.
  auto url_path = a.metadata_url_.find(well_known);
  if (url_path != std::string::npos) {
    auto p = a.metadata_url_.substr(url_path);
    if (std::find(a.paths_.begin(), a.paths_.end(), p) == a.paths_.end())
      a.paths_.push_back(p);
  }
  a.document_ = auth::metadata_document(pr).dump();
  a.required_ = pr.required_scopes;
  return a;
}

bool auth_surface::is_metadata_path(std::string_view path) const {
  return std::find(paths_.begin(), paths_.end(), path) != paths_.end();
}

std::string auth_surface::challenge(std::string_view error, std::string_view description,
                                    const std::vector<std::string>& scopes) const {
  std::vector<std::string> params;
  if (!error.empty())
    params.push_back("error=\"" + quotable(error) + "\"");
  if (!description.empty())
    params.push_back("error_description=\"" + quotable(description) + "\"");
  const auto& named = error.empty() ? required_ : scopes;
  if (!named.empty())
    params.push_back("scope=\"" + quotable(joined(named)) + "\"");
  if (!metadata_url_.empty())
    params.push_back("resource_metadata=\"" + quotable(metadata_url_) + "\"");
  std::string line = "WWW-Authenticate: Bearer";
  for (std::size_t i = 0; i < params.size(); ++i)
    line += (i == 0 ? " " : ", ") + params[i];
  return line + "\r\n";
}

} // namespace cafmcp::http

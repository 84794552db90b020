// A machine client's token: discovery runs on the first refusal (the
// challenge names where the server's metadata is), its results are kept,
// and each renewal is one token request. Renewals are one at a time; a
// renewal that finds a fresher token than the refused one (another
// request's renewal got it) asks for nothing.
#include <mutex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "cafmcp/auth_verifiers.hpp"
#include "cafmcp/client_auth.hpp"

#include "auth/as_client.hpp"
#include "foundation/base64.hpp"

namespace cafmcp {
namespace {

using auth::detail::as_client;
using auth::detail::form_encode;

std::string origin_of(const std::string& url) {
  auto scheme = url.find("://");
  auto path = scheme == std::string::npos ? std::string::npos : url.find('/', scheme + 3);
  return path == std::string::npos ? url : url.substr(0, path);
}

std::string path_of(const std::string& url) {
  auto origin = origin_of(url);
  auto path = url.substr(origin.size());
  if (auto q = path.find_first_of("?#"); q != std::string::npos)
    path.resize(q);
  while (!path.empty() && path.back() == '/')
    path.pop_back();
  return path;
}

std::string text(const json& doc, const char* name) {
  auto it = doc.find(name);
  return it != doc.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Space-separated scope lists, merged without repeats (step-up keeps what
// was granted and adds what the server asked for).
std::string merged(const std::string& a, const std::string& b) {
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

class client_credentials final : public bearer_token_source {
public:
  explicit client_credentials(oauth_client_options o)
    : o_(std::move(o)), http_(auth::fetch_options{o_.ca_file, o_.timeout}) {}

  std::optional<std::string> current() override {
    std::lock_guard lock(mtx_);
    if (token_.empty() || std::chrono::steady_clock::now() >= expires_)
      return std::nullopt;
    return token_;
  }

  bool renew(const auth_challenge& why) override {
    std::lock_guard renewing(renew_mtx_);
    {
      std::lock_guard lock(mtx_);
      if (!token_.empty() && token_ != why.refused_token && std::chrono::steady_clock::now() < expires_
          && why.error != "insufficient_scope")
        return true;
    }
    if (token_endpoint_.empty())
      discover(why);
    std::string scope = why.error == "insufficient_scope" ? merged(granted(), why.scope)
                        : !why.scope.empty()              ? why.scope
                                                          : o_.scope;
    std::string form = "grant_type=client_credentials&resource=" + form_encode(resource_);
    if (!scope.empty())
      form += "&scope=" + form_encode(scope);
    auto basic = "Basic " + cafmcp::detail::base64_encode(form_encode(o_.client_id) + ":"
                                                          + form_encode(o_.client_secret));
    std::string failure;
    auto answer = http_.post_form(token_endpoint_, form, {{"Authorization", basic}}, failure);
    if (!answer)
      throw std::runtime_error("token request failed: " + failure);
    auto token = text(*answer, "access_token");
    if (token.empty())
      throw std::runtime_error("token endpoint answered no access_token");
    auto lifetime = answer->contains("expires_in") && (*answer)["expires_in"].is_number()
                      ? std::chrono::seconds((*answer)["expires_in"].get<long long>())
                      : std::chrono::seconds(3600);
    std::lock_guard lock(mtx_);
    token_ = token;
    granted_ = answer->contains("scope") ? text(*answer, "scope") : scope;
    // Renewed a little before it runs out rather than refused mid-request.
    expires_ = std::chrono::steady_clock::now() + lifetime - std::min(lifetime / 10, std::chrono::seconds(30));
    return true;
  }

private:
  std::string granted() {
    std::lock_guard lock(mtx_);
    return granted_;
  }

  // RFC 9728: the challenge's resource_metadata, else the well-known URL
  // for the endpoint's path, else the origin's. Then RFC 8414 for the
  // first authorization server it names.
  void discover(const auth_challenge& why) {
    std::vector<std::string> tries;
    if (!why.resource_metadata.empty())
      tries.push_back(why.resource_metadata);
    auto origin = origin_of(why.server_url), path = path_of(why.server_url);
    if (!path.empty())
      tries.push_back(origin + "/.well-known/oauth-protected-resource" + path);
    tries.push_back(origin + "/.well-known/oauth-protected-resource");
    std::optional<json> prm;
    std::string failure;
    for (auto& url : tries)
      if ((prm = http_.get_json(url, failure)))
        break;
    if (!prm)
      throw std::runtime_error("no protected resource metadata: " + failure);
    resource_ = text(*prm, "resource");
    if (resource_.empty() || origin_of(resource_) != origin)
      throw std::runtime_error("protected resource metadata names resource '" + resource_ + "', not one of "
                               + origin);
    auto servers = prm->find("authorization_servers");
    if (servers == prm->end() || !servers->is_array() || servers->empty() || !(*servers)[0].is_string())
      throw std::runtime_error("protected resource metadata names no authorization server");
    auto md = auth::discover_authorization_server((*servers)[0].get<std::string>(),
                                                  auth::fetch_options{o_.ca_file, o_.timeout});
    if (md.token_endpoint.empty())
      throw std::runtime_error("authorization server " + md.issuer + " names no token_endpoint");
    token_endpoint_ = md.token_endpoint;
  }

  oauth_client_options o_;
  as_client http_;
  std::mutex renew_mtx_; // one renewal at a time; discovery state below is its
  std::string resource_, token_endpoint_;
  std::mutex mtx_;
  std::string token_, granted_;
  std::chrono::steady_clock::time_point expires_;
};

class fixed_token final : public bearer_token_source {
public:
  explicit fixed_token(std::string t) : token_(std::move(t)) {}
  std::optional<std::string> current() override { return token_; }
  bool renew(const auth_challenge&) override { return false; }

private:
  std::string token_;
};

} // namespace

std::shared_ptr<bearer_token_source> oauth_client_credentials(oauth_client_options o) {
  return std::make_shared<client_credentials>(std::move(o));
}

std::shared_ptr<bearer_token_source> static_bearer_token(std::string token) {
  return std::make_shared<fixed_token>(std::move(token));
}

} // namespace cafmcp

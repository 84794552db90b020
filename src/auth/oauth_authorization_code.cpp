// An interactive client's token (OAuth 2.1 authorization code + PKCE, as
// MCP 2025-11-25 basic/authorization asks of clients). A renewal first
// tries the refresh token (not for a step-up, which needs the user's
// consent to more scopes); otherwise it registers if it must, sends the
// user to the authorization endpoint through the app's `authorize`
// callback, checks `state`, and trades the code and its PKCE verifier for
// tokens. Discovery and registration are kept for later renewals.
#include <mutex>
#include <stdexcept>

#include <openssl/rand.h>
#include <openssl/sha.h>

#include "cafmcp/client_auth.hpp"

#include "auth/held_token.hpp"
#include "auth/resource_discovery.hpp"
#include "auth/token_request.hpp"
#include "foundation/base64.hpp"
#include "foundation/percent_encoding.hpp"

namespace cafmcp {
namespace {

using namespace auth::detail;

std::string random_text(std::size_t bytes) {
  std::string raw(bytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(bytes)) != 1)
    throw std::runtime_error("no randomness for PKCE");
  return cafmcp::detail::base64_encode(raw, cafmcp::detail::base64_alphabet::url);
}

std::string s256(const std::string& verifier) {
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(verifier.data()), verifier.size(), d);
  return cafmcp::detail::base64_encode(std::string(reinterpret_cast<char*>(d), sizeof d),
                                       cafmcp::detail::base64_alphabet::url);
}

// The query parameter `name` of `url`, percent-decoded ('+' is a space).
std::string query_param(const std::string& url, const std::string& name) {
  auto q = url.find('?');
  if (q == std::string::npos)
    return {};
  auto query = url.substr(q + 1, url.find('#') == std::string::npos ? std::string::npos : url.find('#') - q - 1);
  std::size_t at = 0;
  while (at <= query.size()) {
    auto end = query.find('&', at);
    if (end == std::string::npos)
      end = query.size();
    auto pair = query.substr(at, end - at);
    auto eq = pair.find('=');
    if (pair.substr(0, eq) == name) {
      auto v = eq == std::string::npos ? std::string() : pair.substr(eq + 1);
      for (auto& c : v)
        if (c == '+')
          c = ' ';
      return cafmcp::detail::percent_decode(v).value_or(std::string());
    }
    at = end + 1;
  }
  return {};
}

bool lists(const json& doc, const char* field, const std::string& value) {
  auto it = doc.find(field);
  if (it == doc.end() || !it->is_array())
    return false;
  for (auto& v : *it)
    if (v.is_string() && v.get<std::string>() == value)
      return true;
  return false;
}

class authorization_code final : public bearer_token_source {
public:
  explicit authorization_code(oauth_authorization_code_options o)
    : o_(std::move(o)), how_{o_.ca_file, o_.timeout}, http_(how_) {
    if (!o_.authorize)
      throw std::invalid_argument("oauth_authorization_code needs an authorize callback");
  }

  std::optional<std::string> current() override { return held_.current(); }

  bool renew(const auth_challenge& why) override {
    std::lock_guard renewing(renew_mtx_);
    bool step_up = why.error == "insufficient_scope";
    if (held_.fresher_than(why.refused_token) && !step_up)
      return true;
    if (!found_) {
      d_ = discover_resource(why, http_, how_);
      found_ = true;
    }
    if (!step_up && !held_.refresh_token().empty() && refresh())
      return true;
    if (client_.id.empty())
      register_client();
    authorize(scope_for(why));
    return true;
  }

private:
  // The challenge's scope; on a step-up, what was granted plus what it
  // asks; else the resource's scopes_supported, else ours (MCP's scope
  // selection strategy). Empty: no scope parameter at all.
  std::string scope_for(const auth_challenge& why) const {
    if (why.error == "insufficient_scope")
      return merged_scopes(held_.granted(), why.scope);
    if (!why.scope.empty())
      return why.scope;
    std::string supported;
    for (auto& s : d_.scopes_supported)
      supported += (supported.empty() ? "" : " ") + s;
    return !supported.empty() ? supported : o_.scope;
  }

  std::string with_resource(std::string form) const {
    if (!d_.resource.empty())
      form += "&resource=" + form_encode(d_.resource);
    return form;
  }

  bool refresh() {
    try {
      held_.keep(request_token(http_, d_.as.token_endpoint,
                               with_resource("grant_type=refresh_token&refresh_token=" + form_encode(held_.refresh_token())),
                               client_, held_.granted()));
      return true;
    } catch (const std::runtime_error&) {
      return false; // expired or revoked: the user authorizes again
    }
  }

  // Pre-registered; else a Client ID Metadata Document when the server
  // takes those; else dynamic registration (RFC 7591).
  void register_client() {
    const auto& md = d_.as.document;
    auto auth_methods = md.find("token_endpoint_auth_methods_supported");
    auto supports = [&](const char* m) {
      return auth_methods == md.end() || !auth_methods->is_array() ? std::string(m) == "client_secret_basic"
                                                                   : lists(md, "token_endpoint_auth_methods_supported", m);
    };
    if (!o_.client_id.empty()) {
      client_ = {o_.client_id, o_.client_secret,
                 o_.client_secret.empty()              ? "none"
                 : supports("client_secret_basic")     ? "client_secret_basic"
                 : supports("client_secret_post")      ? "client_secret_post"
                                                       : "client_secret_basic",
                 {}};
      return;
    }
    if (!o_.client_metadata_url.empty() && md.value("client_id_metadata_document_supported", false)) {
      client_ = {o_.client_metadata_url, {}, "none", {}};
      return;
    }
    if (d_.as.registration_endpoint.empty())
      throw std::runtime_error("the authorization server offers no registration and no client id was given");
    json request{{"client_name", o_.client_name},
                 {"redirect_uris", {o_.redirect_uri}},
                 {"grant_types", {"authorization_code", "refresh_token"}},
                 {"response_types", {"code"}},
                 {"token_endpoint_auth_method", "none"}};
    std::string failure;
    auto answer = http_.post_json(d_.as.registration_endpoint, request, failure);
    if (!answer)
      throw std::runtime_error("client registration failed: " + failure);
    client_.id = json_text(*answer, "client_id");
    client_.secret = json_text(*answer, "client_secret");
    client_.method = json_text(*answer, "token_endpoint_auth_method");
    if (client_.method.empty())
      client_.method = client_.secret.empty() ? "none" : "client_secret_basic";
    if (client_.id.empty())
      throw std::runtime_error("client registration answered no client_id");
  }

  void authorize(const std::string& scope) {
    const auto& md = d_.as.document;
    // PKCE is required: a server whose metadata does not say it supports
    // S256 is not asked (the 2025-03-26 default endpoints have none to say).
    if (d_.as_metadata && !lists(md, "code_challenge_methods_supported", "S256"))
      throw std::runtime_error("the authorization server does not support PKCE with S256");
    auto verifier = random_text(32), state = random_text(16);
    std::string url = d_.as.authorization_endpoint;
    url += (url.find('?') == std::string::npos ? "?" : "&");
    url += "response_type=code&client_id=" + form_encode(client_.id) + "&redirect_uri=" + form_encode(o_.redirect_uri)
           + "&code_challenge=" + s256(verifier) + "&code_challenge_method=S256&state=" + state;
    if (!scope.empty())
      url += "&scope=" + form_encode(scope);
    if (!d_.resource.empty())
      url += "&resource=" + form_encode(d_.resource);
    auto back = o_.authorize(url);
    if (auto error = query_param(back, "error"); !error.empty())
      throw std::runtime_error("authorization refused: " + error + " " + query_param(back, "error_description"));
    if (query_param(back, "state") != state)
      throw std::runtime_error("authorization answered another request's state");
    auto code = query_param(back, "code");
    if (code.empty())
      throw std::runtime_error("authorization answered no code");
    held_.keep(request_token(http_, d_.as.token_endpoint,
                             with_resource("grant_type=authorization_code&code=" + form_encode(code)
                                           + "&redirect_uri=" + form_encode(o_.redirect_uri)
                                           + "&code_verifier=" + verifier),
                             client_, scope));
  }

  oauth_authorization_code_options o_;
  auth::fetch_options how_;
  as_client http_;
  std::mutex renew_mtx_; // one renewal at a time; what follows is its
  bool found_ = false;
  resource_discovery d_;
  client_identity client_;
  held_token held_;
};

} // namespace

std::shared_ptr<bearer_token_source> oauth_authorization_code(oauth_authorization_code_options o) {
  return std::make_shared<authorization_code>(std::move(o));
}

} // namespace cafmcp

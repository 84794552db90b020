// A machine client's token: discovery runs on the first refusal (the
// challenge names where the server's metadata is), its results are kept,
// and each renewal is one token request. Renewals are one at a time; a
// renewal that finds a fresher token than the refused one (another
// request's renewal got it) asks for nothing.
#include <mutex>
#include <stdexcept>

#include "cafmcp/auth_verifiers.hpp"
#include "cafmcp/client_auth.hpp"

#include "auth/as_client.hpp"
#include "auth/resource_discovery.hpp"
#include <openssl/rand.h>

#include "auth/held_token.hpp"
#include "auth/jose.hpp"
#include "auth/token_request.hpp"
#include "foundation/base64.hpp"

namespace cafmcp {
namespace {

using auth::detail::as_client;
using auth::detail::form_encode;
using auth::detail::merged_scopes;

class client_credentials final : public bearer_token_source {
public:
  explicit client_credentials(oauth_client_options o)
    : o_(std::move(o)), http_(auth::fetch_options{o_.ca_file, o_.timeout}) {}

  std::optional<std::string> current() override { return held_.current(); }

  bool renew(const auth_challenge& why) override {
    std::lock_guard renewing(renew_mtx_);
    if (held_.fresher_than(why.refused_token) && why.error != "insufficient_scope")
      return true;
    if (token_endpoint_.empty())
      discover(why);
    std::string scope = why.error == "insufficient_scope" ? merged_scopes(held_.granted(), why.scope)
                        : !why.scope.empty()              ? why.scope
                                                          : o_.scope;
    std::string form = "grant_type=client_credentials";
    if (!resource_.empty())
      form += "&resource=" + form_encode(resource_);
    if (!scope.empty())
      form += "&scope=" + form_encode(scope);
    auth::detail::client_identity me{o_.client_id, o_.client_secret, {}, {}};
    if (!o_.private_key_pem.empty())
      me = {o_.client_id, {}, "private_key_jwt", assertion()};
    held_.keep(auth::detail::request_token(http_, token_endpoint_, form, me, scope));
    return true;
  }

private:
  // RFC 7523 3: issued by and about the client, for the authorization
  // server, short-lived and used once.
  std::string assertion() const {
    auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch())
                 .count();
    unsigned char id[16];
    RAND_bytes(id, sizeof id);
    json claims{{"iss", o_.client_id}, {"sub", o_.client_id}, {"aud", issuer_}, {"iat", now}, {"exp", now + 300},
                {"jti", cafmcp::detail::base64_encode(std::string(reinterpret_cast<char*>(id), sizeof id),
                                                      cafmcp::detail::base64_alphabet::url)}};
    return auth::detail::sign_compact_jws(o_.private_key_pem, o_.signing_algorithm, claims);
  }

  void discover(const auth_challenge& why) {
    auto d = auth::detail::discover_resource(why, http_, auth::fetch_options{o_.ca_file, o_.timeout});
    if (d.as.token_endpoint.empty())
      throw std::runtime_error("authorization server " + d.as.issuer + " names no token_endpoint");
    resource_ = d.resource;
    token_endpoint_ = d.as.token_endpoint;
    issuer_ = d.as.issuer;
  }

  oauth_client_options o_;
  as_client http_;
  std::mutex renew_mtx_; // one renewal at a time; discovery state below is its
  std::string resource_, token_endpoint_, issuer_;
  auth::detail::held_token held_;
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

#pragma once
// One request to an authorization server's token endpoint, whatever the
// grant (client credentials, authorization code, refresh token), with the
// client authenticated the way it registered (RFC 6749 2.3, OAuth 2.1).
#include <chrono>
#include <string>

#include "auth/as_client.hpp"

namespace cafmcp::auth::detail {

struct client_identity {
  std::string id;
  std::string secret;
  /// client_secret_basic (the default with a secret), client_secret_post,
  /// private_key_jwt (`assertion` in the form, RFC 7523), or none (a
  /// public client: its id in the form).
  std::string method;
  std::string assertion; // private_key_jwt: signed for this one request
};

struct token_answer {
  std::string access_token;
  std::string refresh_token; // may be empty
  std::string scope;         // as granted (the request's when the answer names none)
  std::chrono::seconds lifetime{3600};
};

/// `form`: the grant's parameters, form-encoded. Throws std::runtime_error
/// with the server's error when it refuses.
token_answer request_token(const as_client& http, const std::string& endpoint, std::string form,
                           const client_identity& client, const std::string& asked_scope);

} // namespace cafmcp::auth::detail

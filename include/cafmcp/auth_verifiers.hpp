#pragma once
// The token verifiers cafmcp ships (library cafmcp::auth):
//  - jwt_verifier: JWT access tokens (RFC 9068) checked against the
//    authorization server's JWKS: RS256/RS384/RS512, PS256, ES256/ES384 and
//    EdDSA (Ed25519) through OpenSSL 3; `exp`/`nbf` with a bounded skew,
//    `iss`, and `aud` naming this server (RFC 8707). `alg: none`, HMAC and
//    a key of the wrong type for the header's `alg` are refused.
//  - introspection_verifier: opaque tokens, asked of the authorization
//    server's RFC 7662 endpoint, answers cached briefly.
//  - static_token_verifier: one shared secret, compared in constant time.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cafmcp/auth.hpp"

namespace cafmcp::auth {

/// An authorization server's metadata (RFC 8414, or OpenID Connect
/// Discovery), as far as a resource server and a client use it.
struct authorization_server_metadata {
  std::string issuer;
  std::string jwks_uri;
  std::string introspection_endpoint;
  std::string token_endpoint;
  std::string authorization_endpoint;
  std::string registration_endpoint;
  std::vector<std::string> scopes_supported;
  json document = json::object(); // everything it said
};

/// How cafmcp talks to an authorization server.
struct fetch_options {
  /// PEM CAs to trust for https URLs instead of the system's store.
  std::optional<std::string> ca_file;
  std::chrono::milliseconds timeout{5000};
};

/// Reads `<issuer>/.well-known/oauth-authorization-server` (RFC 8414, with
/// the issuer's path appended after it), falling back to
/// `openid-configuration`; the document's `issuer` must equal `issuer`.
/// Throws std::runtime_error saying what failed.
authorization_server_metadata discover_authorization_server(const std::string& issuer,
                                                           const fetch_options& how = {});

struct jwt_options {
  std::string issuer;   // `iss` must equal it
  std::string audience; // `aud` must name it: the server's canonical URI
  std::string jwks_uri; // the JWKS (discover_authorization_server finds it)
  std::chrono::seconds clock_skew{60};
  /// Accepted `alg` values (asymmetric only; HS* and none are never).
  std::vector<std::string> algorithms{"RS256", "RS384", "RS512", "PS256", "ES256", "ES384", "EdDSA"};
  /// An unknown `kid` refetches the JWKS (a key rotation), at most once
  /// this often: random kids cannot make us hammer the server.
  std::chrono::seconds min_refetch_interval{10};
  fetch_options fetch;
};

std::shared_ptr<token_verifier> jwt_verifier(jwt_options o);

struct introspection_options {
  std::string endpoint; // RFC 7662
  /// How this server authenticates to the endpoint (client_secret_basic).
  std::string client_id;
  std::string client_secret;
  /// When set, the answer's `aud` must name it (RFC 8707); when the
  /// answer has no `aud`, the token is refused.
  std::string audience;
  std::string issuer; // when set, the answer's `iss` (if any) must equal it
  /// Answers (active or not) are kept this long, and never past `exp`.
  std::chrono::seconds cache_ttl{30};
  std::size_t cache_entries = 10000;
  fetch_options fetch;
};

std::shared_ptr<token_verifier> introspection_verifier(introspection_options o);

/// Both kinds at one server: a token shaped as a JWT (three base64url
/// parts) goes to `jwt`, any other to `opaque` (introspection).
std::shared_ptr<token_verifier> by_token_shape(std::shared_ptr<token_verifier> jwt,
                                               std::shared_ptr<token_verifier> opaque);

/// One shared secret; every request carrying it is `as`.
std::shared_ptr<token_verifier> static_token_verifier(std::string token, identity as = {"static-token", {}, {}, {}, {}});

} // namespace cafmcp::auth

#pragma once
// JOSE as far as a resource server needs it: a JWK's public key imported
// into OpenSSL, a compact JWS split and its signature checked. Pure (no
// network, no clock), so every refusal is tested with keys made in the test.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cafmcp/json.hpp"

typedef struct evp_pkey_st EVP_PKEY;

namespace cafmcp::auth::detail {

struct pkey_free {
  void operator()(EVP_PKEY* k) const;
};
using pkey_ptr = std::unique_ptr<EVP_PKEY, pkey_free>;

/// A public key from a JWKS.
struct public_key {
  std::string kid;
  std::string kty; // RSA, EC, OKP
  std::string crv; // P-256, P-384, Ed25519 (EC and OKP)
  std::string alg; // the JWK's own `alg`, when it names one
  pkey_ptr key;
};

/// The key of one JWK, or nullopt with `why` (a private or symmetric key, a
/// curve or type we do not verify with, a malformed member).
std::optional<public_key> import_jwk(const json& jwk, std::string& why);

/// A compact JWS: header.payload.signature, each base64url.
struct compact_jws {
  json header;
  json claims;
  std::string signing_input; // the first two parts as sent
  std::string signature;     // decoded
};

/// nullopt with `why` unless `token` is three base64url parts whose first
/// two are JSON objects.
std::optional<compact_jws> parse_compact_jws(std::string_view token, std::string& why);

/// Whether a key may verify `alg` at all: RS*/PS* need RSA, ES256 P-256,
/// ES384 P-384, EdDSA Ed25519, and a JWK naming its own `alg` only that.
/// This is what stops algorithm confusion (an RSA public key used as an
/// HMAC secret, an EC key offered for RS256).
bool key_fits(const public_key& k, std::string_view alg);

/// A compact JWS of `claims` signed with the PEM private key (a client's
/// assertion, RFC 7523): ES256, ES384, RS256 or EdDSA. Throws
/// std::runtime_error for a key or algorithm it cannot sign with.
std::string sign_compact_jws(const std::string& private_key_pem, const std::string& alg, const json& claims);

/// The signature check proper (key_fits first).
bool verify_signature(const public_key& k, std::string_view alg, std::string_view signing_input,
                      std::string_view signature);

} // namespace cafmcp::auth::detail

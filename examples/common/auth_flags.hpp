#pragma once
// The authorization flags every example server takes with --http:
//   --auth-issuer URL --resource-uri URI   tokens from this authorization
//       server (its JWKS found through its metadata), minted for this URI
//   [--auth-scopes "a b"] [--auth-required-scope S]...
//   [--auth-introspection-client-id ID] (secret in CAFMCP_AUTH_CLIENT_SECRET)
//       opaque tokens by RFC 7662 introspection besides JWTs
//   [--auth-ca-file PEM] [--auth-jwks-refetch-s N]
// and the verifier and metadata they make (cafmcp/auth_verifiers.hpp).
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <cafmcp/http_options.hpp>

namespace examples {

class auth_flags {
public:
  explicit auth_flags(CLI::App& app);
  /// --auth-issuer was given.
  bool requested() const { return !issuer_.empty(); }
  /// Reads the issuer's metadata and sets http.token_verifier and
  /// http.protected_resource. Throws cafmcp::startup_error when the flags
  /// are incomplete or the authorization server cannot be read.
  void apply(cafmcp::http_options& http) const;

private:
  std::string issuer_;
  std::string resource_;
  std::string scopes_;
  std::vector<std::string> required_;
  std::string introspection_client_;
  std::string ca_file_;
  int refetch_s_ = 10;
};

} // namespace examples

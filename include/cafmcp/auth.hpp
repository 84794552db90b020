#pragma once
// Who is calling, over HTTP: cafmcp as an OAuth 2.1 resource server (MCP
// 2025-11-25 basic/authorization). The transport asks a token_verifier
// about each request's bearer token, answers 401/403 with the challenges
// the spec names, serves the Protected Resource Metadata (RFC 9728), and
// hands the verified identity to handlers (request_context::caller()).
// The verifiers themselves (JWT against a JWKS, RFC 7662 introspection, a
// static token) are in cafmcp/auth_verifiers.hpp, library cafmcp::auth.
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cafmcp/json.hpp"

namespace cafmcp::auth {

/// What a verified token says about its bearer.
struct identity {
  /// `sub`, or the client id when the token names no user (client
  /// credentials). A session belongs to the subject that created it.
  std::string subject;
  std::string client_id; // `client_id` or `azp`; may be empty
  std::vector<std::string> scopes;
  json claims = json::object(); // the token's claims, or the introspection answer
  /// The token's `exp`: a GET stream opened with it ends then.
  std::optional<std::chrono::system_clock::time_point> expires_at;

  bool has_scope(std::string_view s) const {
    for (auto& mine : scopes)
      if (mine == s)
        return true;
    return false;
  }
  /// Every scope of `needed` is granted.
  bool has_scopes(const std::vector<std::string>& needed) const {
    for (auto& s : needed)
      if (!has_scope(s))
        return false;
    return true;
  }
};

/// A verifier's answer about one token.
struct verdict {
  enum kind_t {
    valid,       // `who` is set
    invalid,     // 401 invalid_token, with `reason` as error_description
    unavailable, // the verifier could not decide (authorization server unreachable): 503
  };
  kind_t kind = invalid;
  std::shared_ptr<const identity> who;
  std::string reason;

  static verdict accept(identity id) { return {valid, std::make_shared<const identity>(std::move(id)), {}}; }
  static verdict refuse(std::string why) { return {invalid, nullptr, std::move(why)}; }
  static verdict cannot_tell(std::string why) { return {unavailable, nullptr, std::move(why)}; }
};

/// Decides whether a bearer token is good. Called from the transport's
/// verification threads, never from an event loop, so it may block (fetch
/// keys, ask an introspection endpoint); it must be thread-safe. The
/// transport caches each valid answer until the token's expiry (bounded
/// by http_options::auth_cache_ttl), so a verifier need not.
class token_verifier {
public:
  virtual ~token_verifier() = default;
  virtual verdict verify(std::string_view token) = 0;
};

/// The Protected Resource Metadata (RFC 9728) this server serves at
/// `/.well-known/oauth-protected-resource` and at that path followed by
/// the MCP endpoint's path, and names in every 401's `resource_metadata`.
struct protected_resource {
  /// The canonical URI of this MCP server (RFC 8707), e.g.
  /// `https://mcp.example.com/mcp`: the audience tokens must be minted for.
  std::string resource;
  /// Issuer URLs of the authorization servers clients should use.
  std::vector<std::string> authorization_servers;
  /// Scopes clients may ask for (`scopes_supported`); the scopes every
  /// request needs (`required_scopes`) are named in 401 challenges.
  std::vector<std::string> scopes_supported;
  std::vector<std::string> required_scopes;
  std::optional<std::string> resource_name;
  std::optional<std::string> resource_documentation;
};

/// The metadata document (RFC 9728 section 2).
json metadata_document(const protected_resource& pr);

} // namespace cafmcp::auth

#pragma once
// The HTTP face of authorization (MCP basic/authorization, RFC 6750, RFC
// 9728): the bearer token of a request, the WWW-Authenticate challenges of
// 401 and 403, and the Protected Resource Metadata document with the paths
// it is served at. Pure, so every header is tested without a socket.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cafmcp/http_options.hpp"

namespace cafmcp::http {

/// The token of `Authorization: Bearer <token>` (the scheme is
/// case-insensitive, RFC 7235); nullopt for no header, another scheme or
/// an empty token.
std::optional<std::string_view> bearer_token_of(std::optional<std::string_view> authorization);

/// The scopes a JSON-RPC error answer names when it is insufficient_scope
/// (-32030, data.requiredScopes); nullopt for any other message.
std::optional<std::vector<std::string>> insufficient_scopes_in(std::string_view answer);

class auth_surface {
public:
  /// From http_options::protected_resource and ::token_verifier; `mcp_path`
  /// the MCP endpoint's path.
  static auth_surface from(const http_options& o);

  bool enabled() const { return enabled_; }
  /// Whether `path` is one the metadata document is served at:
  /// /.well-known/oauth-protected-resource and that followed by the MCP
  /// endpoint's path (RFC 9728 section 3.1).
  bool is_metadata_path(std::string_view path) const;
  const std::string& metadata_document() const { return document_; }
  const std::vector<std::string>& required_scopes() const { return required_; }

  /// A `WWW-Authenticate: ...\r\n` line: `error` empty for a request with
  /// no token (then the scopes every request needs are named), else
  /// "invalid_token" or "insufficient_scope" with `scopes`.
  std::string challenge(std::string_view error, std::string_view description = {},
                        const std::vector<std::string>& scopes = {}) const;

private:
  bool enabled_ = false;
  std::string metadata_url_; // resource_metadata; empty without a protected resource
  std::vector<std::string> paths_;
  std::string document_;
  std::vector<std::string> required_;
};

} // namespace cafmcp::http

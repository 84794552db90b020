#pragma once
// What a client learns before it asks for a token, from the server's
// challenge: the protected resource's metadata (RFC 9728: the challenge's
// resource_metadata, else the well-known URL for the endpoint's path, else
// the origin's) and its first authorization server's metadata (RFC 8414 /
// OpenID). A server with no resource metadata is a 2025-03-26 one: its own
// origin is the authorization server, with metadata there or, failing
// that, the default /authorize, /token and /register endpoints.
#include <string>
#include <vector>

#include "cafmcp/auth_verifiers.hpp"
#include "cafmcp/client_auth.hpp"

#include "auth/as_client.hpp"

namespace cafmcp::auth::detail {

struct resource_discovery {
  std::string resource; // RFC 8707 `resource` to ask for; empty for a 2025-03-26 server
  std::vector<std::string> scopes_supported; // the resource's
  authorization_server_metadata as;
  bool as_metadata = true; // false: the 2025-03-26 default endpoints
};

/// Throws std::runtime_error saying what could not be found.
resource_discovery discover_resource(const auth_challenge& why, const as_client& http, const fetch_options& how);

std::string origin_of(const std::string& url);
/// Space-separated scope lists merged without repeats.
std::string merged_scopes(const std::string& a, const std::string& b);
std::string json_text(const json& doc, const char* name);

} // namespace cafmcp::auth::detail

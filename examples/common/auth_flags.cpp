#include "auth_flags.hpp"

#include <cstdlib>
#include <sstream>

#include <cafmcp/auth_verifiers.hpp>
#include <cafmcp/startup_error.hpp>

namespace examples {

auth_flags::auth_flags(CLI::App& app) {
  app.add_option("--auth-issuer", issuer_,
                 "with --http: accept only bearer tokens from this OAuth authorization server (issuer URL; its "
                 "keys are found through its RFC 8414 / OpenID metadata); needs --resource-uri");
  app.add_option("--resource-uri", resource_,
                 "this server's canonical URI (e.g. https://mcp.example.com/mcp): the audience tokens must name, "
                 "and the resource of /.well-known/oauth-protected-resource");
  app.add_option("--auth-scopes", scopes_, "scopes clients may ask for, space-separated (scopes_supported)");
  app.add_option("--auth-required-scope", required_, "a scope every request's token must carry (repeatable)");
  app.add_option("--auth-introspection-client-id", introspection_client_,
                 "also accept opaque tokens, asking the issuer's introspection endpoint as this client "
                 "(its secret in CAFMCP_AUTH_CLIENT_SECRET)");
  app.add_option("--auth-ca-file", ca_file_, "PEM CAs to trust for the authorization server's https URLs");
  app.add_option("--auth-jwks-refetch-s", refetch_s_,
                 "an unknown key id refetches the issuer's keys at most this often (seconds)")
    ->capture_default_str()
    ->check(CLI::Range(0, 86400));
}

void auth_flags::apply(cafmcp::http_options& http) const {
  using cafmcp::startup_error;
  if (!requested())
    return;
  if (resource_.empty())
    throw startup_error("--auth-issuer needs --resource-uri (the URI tokens must be minted for)");
  cafmcp::auth::fetch_options how;
  if (!ca_file_.empty())
    how.ca_file = ca_file_;
  cafmcp::auth::authorization_server_metadata md;
  try {
    md = cafmcp::auth::discover_authorization_server(issuer_, how);
  } catch (const std::exception& e) {
    throw startup_error(std::string("--auth-issuer: ") + e.what());
  }
  if (md.jwks_uri.empty())
    throw startup_error("--auth-issuer " + issuer_ + ": its metadata names no jwks_uri");
  cafmcp::auth::jwt_options jwt;
  jwt.issuer = issuer_;
  jwt.audience = resource_;
  jwt.jwks_uri = md.jwks_uri;
  jwt.min_refetch_interval = std::chrono::seconds(refetch_s_);
  jwt.fetch = how;
  auto verifier = cafmcp::auth::jwt_verifier(jwt);
  if (!introspection_client_.empty()) {
    const char* secret = std::getenv("CAFMCP_AUTH_CLIENT_SECRET");
    if (!secret)
      throw startup_error("--auth-introspection-client-id needs CAFMCP_AUTH_CLIENT_SECRET");
    if (md.introspection_endpoint.empty())
      throw startup_error("--auth-issuer " + issuer_ + ": its metadata names no introspection_endpoint");
    cafmcp::auth::introspection_options in;
    in.endpoint = md.introspection_endpoint;
    in.client_id = introspection_client_;
    in.client_secret = secret;
    in.audience = resource_;
    in.issuer = issuer_;
    in.fetch = how;
    verifier = cafmcp::auth::by_token_shape(verifier, cafmcp::auth::introspection_verifier(in));
  }
  cafmcp::auth::protected_resource pr;
  pr.resource = resource_;
  pr.authorization_servers = {issuer_};
  std::istringstream words(scopes_);
  for (std::string s; words >> s;)
    pr.scopes_supported.push_back(s);
  pr.required_scopes = required_;
  http.token_verifier = std::move(verifier);
  http.protected_resource = std::move(pr);
}

} // namespace examples

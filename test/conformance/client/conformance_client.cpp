// The client the official conformance suite's client scenarios drive:
// `cafmcp-conformance-client URL`, with the scenario's name in
// MCP_CONFORMANCE_SCENARIO and its context (pre-registered credentials...)
// as JSON in MCP_CONFORMANCE_CONTEXT. It connects with cafmcp::client over
// Streamable HTTP, lists the tools and calls the first, authorizing as
// the scenario needs: client credentials for the client-credentials
// scenarios, the authorization code flow with PKCE for the rest (its
// "browser" follows the authorization endpoint's redirect without a user).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cafmcp/client.hpp"
#include "cafmcp/client_auth.hpp"
#include "cafmcp/http_client_transport.hpp"

#include "http_fetch/http_fetch.hpp"

namespace {

// What a browser would do unattended: load the authorization URL and stop
// at the redirect back to the app.
std::string follow_authorization(const std::string& url) {
  auto u = cafmcp::fetch::parse_http_url(url);
  if (!u)
    throw std::runtime_error("not an http(s) authorization URL: " + url);
  auto tls = u->tls ? cafmcp::fetch::make_tls_client(std::nullopt) : nullptr;
  auto r = cafmcp::fetch::http_send(*u, {}, std::chrono::steady_clock::now() + std::chrono::seconds(10), tls.get());
  if (r.location.empty())
    throw std::runtime_error("the authorization endpoint did not redirect (HTTP " + std::to_string(r.status) + ")");
  return r.location;
}

std::string text(const cafmcp::json& j, const char* k) { return j.contains(k) && j[k].is_string() ? j[k].get<std::string>() : ""; }

} // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fputs("usage: cafmcp-conformance-client URL\n", stderr);
    return 2;
  }
  std::string url = argv[argc - 1];
  const char* scenario_env = std::getenv("MCP_CONFORMANCE_SCENARIO");
  std::string scenario = scenario_env ? scenario_env : "";
  auto context = cafmcp::json::parse(std::getenv("MCP_CONFORMANCE_CONTEXT") ? std::getenv("MCP_CONFORMANCE_CONTEXT") : "{}",
                                     nullptr, false);
  if (!context.is_object())
    context = cafmcp::json::object();
  try {
    cafmcp::http_client_options h;
    h.url = url;
    if (scenario.rfind("auth/", 0) == 0) {
      if (scenario.find("client-credentials") != std::string::npos) {
        cafmcp::oauth_client_options o;
        o.client_id = text(context, "client_id");
        o.client_secret = text(context, "client_secret");
        o.private_key_pem = text(context, "private_key_pem");
        if (auto alg = text(context, "signing_algorithm"); !alg.empty())
          o.signing_algorithm = alg;
        h.auth = cafmcp::oauth_client_credentials(o);
      } else {
        cafmcp::oauth_authorization_code_options o;
        o.client_id = text(context, "client_id");
        o.client_secret = text(context, "client_secret");
        o.client_name = "cafmcp conformance client";
        o.client_metadata_url = "https://conformance-test.local/client-metadata.json";
        o.redirect_uri = "http://localhost:3000/callback";
        o.authorize = follow_authorization;
        h.auth = cafmcp::oauth_authorization_code(o);
      }
    }
    cafmcp::client c(cafmcp::make_http_client_transport(h));
    c.connect().get();
    auto tools = c.list_tools().get();
    if (!tools.empty()) {
      auto call = c.call_tool(text(tools.front(), "name"), cafmcp::json::object()).get();
      if (call->error) {
        std::fprintf(stderr, "tools/call failed: %s\n", call->error->message.c_str());
        return 1;
      }
    }
    c.close();
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cafmcp-conformance-client: %s\n", e.what());
    return 1;
  }
}

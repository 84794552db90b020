// The authorization surface as a client meets it before it has a token:
// a request without one, the challenge, the metadata the challenge names.
// A server that serves without a token is not protected: reported, not
// failed (authorization is optional in MCP).
#include "cafmcp/client_auth.hpp"

#include "check/checks.hpp"
#include "http_fetch/http_fetch.hpp"

namespace cafmcp::check {
namespace {

std::string origin_of(const std::string& url) {
  auto scheme = url.find("://");
  auto path = scheme == std::string::npos ? std::string::npos : url.find('/', scheme + 3);
  return path == std::string::npos ? url : url.substr(0, path);
}

fetch::http_reply exchange(const std::string& url, fetch::http_exchange what, const options& o) {
  auto u = fetch::parse_http_url(url);
  if (!u)
    return {};
  std::shared_ptr<fetch::tls_client> tls;
  if (u->tls)
    tls = fetch::make_tls_client(o.ca_file);
  return fetch::http_send(*u, what, std::chrono::steady_clock::now() + o.timeout, tls.get());
}

// RFC 9728 section 2: `resource` (naming this server) and, for MCP, the
// authorization servers to ask.
std::string metadata_problem(const json& doc, const std::string& url) {
  if (!doc.is_object())
    return "not a JSON object";
  if (!doc.contains("resource") || !doc["resource"].is_string())
    return "no resource";
  if (origin_of(doc["resource"].get<std::string>()) != origin_of(url))
    return "resource " + doc["resource"].get<std::string>() + " is not on " + origin_of(url);
  auto as = doc.find("authorization_servers");
  if (as == doc.end() || !as->is_array() || as->empty())
    return "no authorization_servers";
  for (auto& s : *as)
    if (!s.is_string())
      return "authorization_servers holds a non-string";
  return {};
}

} // namespace

void check_authorization(context& ctx) {
  const auto& url = ctx.opts.url;
  fetch::http_exchange init;
  init.method = "POST";
  init.content_type = "application/json";
  init.headers = {{"Accept", "application/json, text/event-stream"}};
  init.body = R"({"jsonrpc":"2.0","id":"cafmcp-check-auth","method":"initialize","params":{"protocolVersion":)"
              R"("2025-11-25","capabilities":{},"clientInfo":{"name":"cafmcp-check","version":"1"}}})";
  auto anonymous = exchange(url, init, ctx.opts);
  const std::string challenge_id = "auth.challenge";
  const std::string challenge_title = "a request without a token gets 401 with a Bearer challenge naming resource_metadata";
  if (anonymous.status == 0)
    return ctx.record(challenge_id, challenge_title, spec::authorization, verdict::skip,
                      "no answer to a plain POST" + (anonymous.failure.empty() ? "" : ": " + anonymous.failure));
  if (anonymous.status != 401)
    return ctx.record(challenge_id, challenge_title, spec::authorization, verdict::info,
                      "HTTP " + std::to_string(anonymous.status)
                        + " without a token: the server is not protected (authorization is optional)");
  auto c = parse_bearer_challenge(anonymous.www_authenticate);
  if (anonymous.www_authenticate.empty())
    ctx.record(challenge_id, challenge_title, spec::authorization, verdict::fail,
               "401 without a WWW-Authenticate header");
  else if (c.resource_metadata.empty())
    ctx.record(challenge_id, challenge_title, spec::authorization, verdict::fail,
               "WWW-Authenticate: " + anonymous.www_authenticate + " names no resource_metadata");
  else
    ctx.record(challenge_id, challenge_title, spec::authorization, verdict::pass,
               "WWW-Authenticate: " + anonymous.www_authenticate);

  const std::string md_id = "auth.metadata";
  const std::string md_title = "the protected resource metadata is served and well-formed";
  auto md_url = !c.resource_metadata.empty() ? c.resource_metadata
                                             : origin_of(url) + "/.well-known/oauth-protected-resource";
  fetch::http_exchange get;
  get.headers = {{"Accept", "application/json"}};
  auto md = exchange(md_url, get, ctx.opts);
  if (md.status != 200)
    return ctx.record(md_id, md_title, spec::authorization, verdict::fail,
                      md_url + ": " + (md.status ? "HTTP " + std::to_string(md.status) : "no answer"));
  auto doc = json::parse(md.body, nullptr, false);
  if (auto problem = metadata_problem(doc, url); !problem.empty())
    return ctx.record(md_id, md_title, spec::authorization, verdict::fail, md_url + ": " + problem);
  ctx.record(md_id, md_title, spec::authorization, verdict::pass,
             md_url + ": resource " + doc["resource"].get<std::string>() + ", authorization server "
               + doc["authorization_servers"][0].get<std::string>());
}

} // namespace cafmcp::check

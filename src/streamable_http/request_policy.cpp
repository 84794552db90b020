#include "streamable_http/request_policy.hpp"

#include <algorithm>
#include <cstdlib>

#include "cafmcp/protocol_version.hpp"

namespace cafmcp::http {
namespace {

bool contains_ci(std::string_view hay, std::string_view needle) {
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
  });
  return it != hay.end();
}

bool listed(const std::vector<std::string>& list, std::string_view v) {
  return std::find(list.begin(), list.end(), v) != list.end();
}

} // namespace

request_policy request_policy::from(const http_options& opts, std::uint16_t port) {
  request_policy p;
  p.path = opts.path;
  auto ps = std::to_string(port);
  for (std::string name : {"localhost", "127.0.0.1", "[::1]"}) {
    p.hosts.push_back(name + ":" + ps);
    p.origins.push_back("http://" + name + ":" + ps);
  }
  if (opts.host != "127.0.0.1" && opts.host != "localhost" && opts.host != "::1") {
    p.hosts.push_back(opts.host + ":" + ps);
    p.origins.push_back("http://" + opts.host + ":" + ps);
  }
  p.hosts.insert(p.hosts.end(), opts.allowed_hosts.begin(), opts.allowed_hosts.end());
  p.origins.insert(p.origins.end(), opts.allowed_origins.begin(), opts.allowed_origins.end());
  p.token = opts.bearer_token;
  if (!p.token)
    if (const char* env = std::getenv("CAFMCP_HTTP_TOKEN"); env && *env)
      p.token = env;
  return p;
}

std::optional<rejection> request_policy::check(const request_facts& r) const {
  auto target = r.target.substr(0, r.target.find('?'));
  if (target != path)
    return rejection{404, "Not found: the MCP endpoint is " + path};
  // DNS rebinding: a foreign page resolving its own name to us sends its
  // name as Host; only our own names are served.
  if (!r.host || !listed(hosts, *r.host))
    return rejection{403, "Forbidden: Host header not allowed"};
  if (r.origin && !listed(origins, *r.origin))
    return rejection{403, "Forbidden: Origin not allowed"};
  if (token) {
    auto expected = "Bearer " + *token;
    if (!r.authorization || *r.authorization != expected)
      return rejection{401, "Unauthorized: a bearer token is required"};
  }
  if (r.method != "POST" && r.method != "GET" && r.method != "DELETE")
    return rejection{405, "Method not allowed: use POST, GET or DELETE"};
  auto accepts = [&](std::string_view type) {
    return r.accept && (contains_ci(*r.accept, type) || contains_ci(*r.accept, "*/*"));
  };
  if (r.method == "POST") {
    if (!accepts("application/json") || !accepts("text/event-stream"))
      return rejection{406, "Not acceptable: Accept must list application/json and text/event-stream"};
    if (!r.content_type || !contains_ci(*r.content_type, "application/json"))
      return rejection{415, "Unsupported media type: send application/json"};
  }
  if (r.method == "GET" && !accepts("text/event-stream"))
    return rejection{406, "Not acceptable: GET needs Accept: text/event-stream"};
  if (r.protocol_version && !is_supported_protocol_version(*r.protocol_version))
    return rejection{400, "Unsupported MCP-Protocol-Version: " + std::string(*r.protocol_version)};
  return std::nullopt;
}

} // namespace cafmcp::http

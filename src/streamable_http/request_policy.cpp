#include "streamable_http/request_policy.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <string>

#include "cafmcp/protocol_version.hpp"

#include "foundation/ascii_case.hpp"
#include "foundation/base64.hpp"

namespace cafmcp::http {
namespace {

bool contains_ci(std::string_view hay, std::string_view needle) {
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                        [](char a, char b) { return ascii_lower(a) == ascii_lower(b); });
  return it != hay.end();
}

std::string_view trim(std::string_view v) {
  while (!v.empty() && (v.front() == ' ' || v.front() == '\t'))
    v.remove_prefix(1);
  while (!v.empty() && (v.back() == ' ' || v.back() == '\t'))
    v.remove_suffix(1);
  return v;
}

// One media range of an Accept header ("text/*;q=0.5"): its media range,
// and whether a q=0 refuses it (then it admits nothing).
struct media_range {
  std::string_view media;
  bool refused = false;
};

media_range read_range(std::string_view range) {
  auto params = range.find(';');
  media_range r{trim(range.substr(0, params))};
  while (params != std::string_view::npos) {
    auto next = range.find(';', params + 1);
    auto param = trim(range.substr(params + 1, next == std::string_view::npos ? next : next - params - 1));
    if (param.size() > 2 && (param[0] == 'q' || param[0] == 'Q') && param[1] == '=') {
      auto q = std::string(param.substr(2));
      if (std::strtod(q.c_str(), nullptr) <= 0.0)
        r.refused = true;
    }
    params = next;
  }
  return r;
}

// Does the range admit `type` ("text/event-stream")?
bool admits(const media_range& r, std::string_view type) {
  if (r.refused)
    return false;
  if (r.media == "*/*")
    return true;
  auto slash = type.find('/');
  if (r.media.size() == slash + 2 && r.media.substr(slash) == "/*")
    return ascii_iequals(r.media.substr(0, slash), type.substr(0, slash));
  return ascii_iequals(r.media, type);
}

// Whether some range of the header admits each of `types`: the header is
// read once for all of them (a POST asks for two; read once for each, it
// was ~490 instructions a request).
template <std::size_t N>
bool accepts_all(std::string_view header, const std::array<std::string_view, N>& types) {
  std::array<bool, N> admitted{};
  std::size_t left = N;
  while (left != 0 && !header.empty()) {
    auto comma = header.find(',');
    auto range = read_range(header.substr(0, comma));
    for (std::size_t i = 0; i < N; ++i)
      if (!admitted[i] && admits(range, types[i])) {
        admitted[i] = true;
        --left;
      }
    if (comma == std::string_view::npos)
      break;
    header.remove_prefix(comma + 1);
  }
  return left == 0;
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
  return p;
}

std::optional<rejection> request_policy::check(const request_facts& r) const {
  auto target = r.target.substr(0, r.target.find('?'));
  if (target != path)
    return rejection{404, "Not found: the MCP endpoint is " + path};
  if (auto no = check_caller(r))
    return no;
  if (r.method != "POST" && r.method != "GET" && r.method != "DELETE")
    return rejection{405, "Method not allowed: use POST, GET or DELETE"};
  using namespace std::string_view_literals;
  auto accepts = [&](const auto& types) { return r.accept && accepts_all(*r.accept, types); };
  if (r.method == "POST") {
    if (!accepts(std::array{"application/json"sv, "text/event-stream"sv}))
      return rejection{406, "Not acceptable: Accept must list application/json and text/event-stream"};
    if (!r.content_type || !contains_ci(*r.content_type, "application/json"))
      return rejection{415, "Unsupported media type: send application/json"};
  }
  if (r.method == "GET" && !accepts(std::array{"text/event-stream"sv}))
    return rejection{406, "Not acceptable: GET needs Accept: text/event-stream"};
  // A POST's version is judged once its body is read (a stateless request
  // gets the revision's own error, with its id).
  if (r.method != "POST" && r.protocol_version && !is_supported_protocol_version(*r.protocol_version))
    return rejection{400, "Unsupported MCP-Protocol-Version: " + std::string(*r.protocol_version)};
  return std::nullopt;
}

std::optional<rejection> request_policy::check_caller(const request_facts& r) const {
  // DNS rebinding: a foreign page resolving its own name to us sends its
  // name as Host; only our own names are served.
  if (!r.host || !listed(hosts, *r.host))
    return rejection{403, "Forbidden: Host header not allowed"};
  if (r.origin && !listed(origins, *r.origin))
    return rejection{403, "Forbidden: Origin not allowed"};
  return std::nullopt;
}

bool is_stateless_post(bool has_session_id, std::optional<std::string_view> protocol_version) {
  if (!protocol_version)
    return false;
  // 2026-07-28 has no sessions: its requests ignore an Mcp-Session-Id
  // (basic/transports, "Earlier Streamable HTTP Revisions").
  if (is_stateless_protocol_version(*protocol_version))
    return true;
  // An unknown version outside a session is answered there, naming the
  // versions we speak; an initialize naming a stateless version is such a
  // request too (and is refused there: the revision has no initialize).
  return !has_session_id && !is_supported_protocol_version(*protocol_version);
}

namespace {

// `=?base64?...?=` carries values a header cannot hold as they are.
std::optional<std::string> header_value(std::string_view v) {
  constexpr std::string_view open = "=?base64?", close = "?=";
  if (v.size() >= open.size() + close.size() && v.substr(0, open.size()) == open
      && v.substr(v.size() - close.size()) == close)
    return detail::base64_decode(v.substr(open.size(), v.size() - open.size() - close.size()));
  return std::string(v);
}

rejection mismatch(std::string message) {
  return rejection{400, "Header mismatch: " + std::move(message), jsonrpc::code::header_mismatch};
}

} // namespace

std::optional<rejection> check_mirrored_headers(const mirrored_headers& h, const jsonrpc::request& req) {
  if (!h.protocol_version)
    return mismatch("the MCP-Protocol-Version header is required");
  const json* params = req.params && req.params->is_object() ? &*req.params : nullptr;
  if (params && params->contains("_meta") && (*params)["_meta"].is_object()) {
    const auto& meta = (*params)["_meta"];
    auto v = meta.find("io.modelcontextprotocol/protocolVersion");
    if (v != meta.end() && v->is_string() && v->get<std::string>() != *h.protocol_version)
      return mismatch("MCP-Protocol-Version header value '" + std::string(*h.protocol_version)
                      + "' does not match body value '" + v->get<std::string>() + "'");
  }
  if (!h.method)
    return mismatch("the Mcp-Method header is required");
  if (*h.method != req.method)
    return mismatch("Mcp-Method header value '" + std::string(*h.method) + "' does not match body value '"
                    + req.method + "'");
  // SEP-2243's name-shaped fields, and SEP-2663's task id.
  const char* field = req.method == "tools/call" || req.method == "prompts/get" ? "name"
                      : req.method == "resources/read"                          ? "uri"
                      : req.method == "tasks/get" || req.method == "tasks/update" || req.method == "tasks/cancel"
                        ? "taskId"
                        : nullptr;
  if (!field)
    return std::nullopt;
  if (!h.name)
    return mismatch(std::string("the Mcp-Name header is required for ") + req.method);
  auto name = header_value(*h.name);
  if (!name)
    return mismatch("Mcp-Name header is not valid base64");
  auto body = params && params->contains(field) && (*params)[field].is_string()
                ? (*params)[field].get<std::string>()
                : std::string();
  if (*name != body)
    return mismatch("Mcp-Name header value '" + *name + "' does not match body value '" + body + "'");
  return std::nullopt;
}

int stateless_answer_status(std::string_view answer) {
  auto code = jsonrpc::answer_error_code(answer); // not parsed: the answer can be large
  if (!code)
    return 200;
  switch (*code) {
    case jsonrpc::code::method_not_found: return 404;
    case jsonrpc::code::invalid_request:
    case jsonrpc::code::invalid_params:
    case jsonrpc::code::header_mismatch:
    case jsonrpc::code::missing_client_capability:
    case jsonrpc::code::unsupported_protocol_version: return 400;
    default: return 200;
  }
}

} // namespace cafmcp::http

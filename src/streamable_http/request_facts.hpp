#pragma once
// What request_policy looks at, read from a parsed request: the router and
// the fuzz target over raw request bytes (fuzz/http_request.cpp) read it
// the same way.
#include <cctype>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "streamable_http/http_request.hpp"
#include "streamable_http/request_policy.hpp"

namespace cafmcp::http {

/// The value of header `name` (the first, when repeated), or nullopt.
inline std::optional<std::string_view> header(const request& req, std::string_view name) {
  auto it = req.find(beast::string_view(name.data(), name.size()));
  if (it == req.end())
    return std::nullopt;
  return std::string_view(it->value().data(), it->value().size());
}

/// Views into `req`: valid while it lives.
inline request_facts facts_of(const request& req) {
  return {std::string_view(req.method_string().data(), req.method_string().size()),
          std::string_view(req.target().data(), req.target().size()),
          header(req, "Host"),
          header(req, "Origin"),
          header(req, "Accept"),
          header(req, "Content-Type"),
          header(req, "Authorization"),
          header(req, "MCP-Protocol-Version")};
}

/// The 2026-07-28 headers mirroring a stateless request's body.
inline mirrored_headers mirrored_headers_of(const request& req) {
  return {header(req, "MCP-Protocol-Version"), header(req, "Mcp-Method"), header(req, "Mcp-Name")};
}

/// The `Mcp-Param-*` headers (SEP-2243): the name after the prefix,
/// lower-cased, -> the raw value (the core judges them against the tool).
inline std::shared_ptr<const std::map<std::string, std::string>> param_headers_of(const request& req) {
  auto out = std::make_shared<std::map<std::string, std::string>>();
  constexpr std::string_view prefix = "mcp-param-";
  for (auto& field : req) {
    auto name = field.name_string();
    if (name.size() <= prefix.size())
      continue;
    std::string lowered(name.data(), name.size());
    for (auto& ch : lowered)
      ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (lowered.compare(0, prefix.size(), prefix) == 0)
      out->emplace(lowered.substr(prefix.size()), std::string(field.value().data(), field.value().size()));
  }
  return out;
}

} // namespace cafmcp::http

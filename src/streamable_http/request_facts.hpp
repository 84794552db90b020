#pragma once
// What request_policy looks at, read from a parsed request: the router and
// the fuzz target over raw request bytes (fuzz/http_request.cpp) read it
// the same way.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "foundation/ascii_case.hpp"
#include "streamable_http/http_request.hpp"
#include "streamable_http/request_policy.hpp"

namespace cafmcp::http {

/// The headers the transport reads (each the first, when repeated), found
/// in one pass over the request's fields: a lookup per header walked
/// Beast's case-insensitive index, about 16 walks a POST. Views into the
/// request: valid while it lives.
struct known_headers {
  std::optional<std::string_view> host, origin, accept, content_type, authorization;
  std::optional<std::string_view> protocol_version, session_id, last_event_id, mcp_method, mcp_name;
};

inline known_headers headers_of(const request& req) {
  known_headers h;
  for (auto& field : req) {
    std::optional<std::string_view>* slot = nullptr;
    switch (field.name()) {
      case beast::http::field::host: slot = &h.host; break;
      case beast::http::field::origin: slot = &h.origin; break;
      case beast::http::field::accept: slot = &h.accept; break;
      case beast::http::field::content_type: slot = &h.content_type; break;
      case beast::http::field::authorization: slot = &h.authorization; break;
      case beast::http::field::unknown: {
        auto name = field.name_string();
        auto sv = [](beast::string_view v) { return std::string_view(v.data(), v.size()); };
        slot = ascii_iequals(sv(name), "mcp-session-id")         ? &h.session_id
               : ascii_iequals(sv(name), "mcp-protocol-version") ? &h.protocol_version
               : ascii_iequals(sv(name), "mcp-method")           ? &h.mcp_method
               : ascii_iequals(sv(name), "mcp-name")             ? &h.mcp_name
               : ascii_iequals(sv(name), "last-event-id")        ? &h.last_event_id
                                                                 : nullptr;
        break;
      }
      default: break;
    }
    if (slot && !*slot)
      *slot = std::string_view(field.value().data(), field.value().size());
  }
  return h;
}

/// Views into `req`: valid while it lives.
inline request_facts facts_of(const request& req, const known_headers& h) {
  return {std::string_view(req.method_string().data(), req.method_string().size()),
          std::string_view(req.target().data(), req.target().size()),
          h.host,
          h.origin,
          h.accept,
          h.content_type,
          h.authorization,
          h.protocol_version};
}

inline request_facts facts_of(const request& req) { return facts_of(req, headers_of(req)); }

/// The 2026-07-28 headers mirroring a stateless request's body.
inline mirrored_headers mirrored_headers_of(const known_headers& h) {
  return {h.protocol_version, h.mcp_method, h.mcp_name};
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
      ch = ascii_lower(ch);
    if (lowered.compare(0, prefix.size(), prefix) == 0)
      out->emplace(lowered.substr(prefix.size()), std::string(field.value().data(), field.value().size()));
  }
  return out;
}

} // namespace cafmcp::http

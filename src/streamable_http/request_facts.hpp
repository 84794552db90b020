#pragma once
// What request_policy looks at, read from a parsed request: the router and
// the fuzz target over raw request bytes (fuzz/http_request.cpp) read it
// the same way.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "streamable_http/http_request.hpp"
#include "streamable_http/request_policy.hpp"

namespace cafmcp::http {

/// The headers the transport reads (each the first, when repeated): views
/// into the request, valid while it lives.
struct known_headers {
  std::optional<std::string_view> host, origin, accept, content_type, authorization;
  std::optional<std::string_view> protocol_version, session_id, last_event_id, mcp_method, mcp_name;
};

inline known_headers headers_of(const request& req) {
  return {req[header::host],          req[header::origin],     req[header::accept],
          req[header::content_type],  req[header::authorization], req[header::protocol_version],
          req[header::session_id],    req[header::last_event_id], req[header::mcp_method],
          req[header::mcp_name]};
}

/// Views into `req`: valid while it lives.
inline request_facts facts_of(const request& req, const known_headers& h) {
  return {req.method_string(),
          req.target(),
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
  for (std::size_t i = 0; i < req.param_count(); ++i) {
    auto [name, value] = req.param(i);
    out->emplace(name, value); // a repeated one is read from its first line
  }
  return out;
}

} // namespace cafmcp::http

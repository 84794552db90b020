#pragma once
// The one HTTP exchange the OTLP exporter needs: a blocking POST with a
// deadline, over plain HTTP/1.1.
#include <chrono>
#include <map>
#include <optional>
#include <string>

namespace cafmcp::otel::detail {

struct http_url {
  std::string host, port = "80", target = "/";
};

/// Plain `http://host[:port][/path]` only (IPv6 hosts in brackets); TLS is
/// for a collector beside the process, not for this client.
std::optional<http_url> parse_http_url(const std::string& url);

struct http_reply {
  int status = 0; // 0: no answer (unreachable, reset, or the deadline passed)
  std::string body;
  std::string retry_after; // the raw header, empty when absent
};

http_reply http_post(const http_url& url, const std::map<std::string, std::string>& headers,
                     const std::string& content_type, const std::string& body,
                     std::chrono::steady_clock::time_point until);

} // namespace cafmcp::otel::detail

#pragma once
// The one HTTP exchange the OTLP exporter needs: a blocking POST with a
// deadline, over HTTP/1.1 or HTTP/1.1 over TLS.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace cafmcp::otel::detail {

struct http_url {
  bool tls = false;
  std::string host, port = "80", target = "/";
};

/// `http://host[:port][/path]` or `https://...` (IPv6 hosts in brackets).
std::optional<http_url> parse_http_url(const std::string& url);

/// What every https POST of one exporter shares (OpenSSL's context with
/// its trust store loaded once).
struct tls_client;

/// Verifies against the system's CA store, or only against the PEM CAs in
/// `ca_file` when given; throws std::runtime_error if they cannot be loaded.
std::shared_ptr<tls_client> make_tls_client(const std::optional<std::string>& ca_file);

struct http_reply {
  int status = 0; // 0: no answer (unreachable, reset, TLS refused, or the deadline passed)
  std::string body;
  std::string retry_after; // the raw header, empty when absent
  std::string failure;     // with status 0, when known: why (a TLS verification error)
};

/// `tls` is needed for an https url: the certificate must chain to its
/// trusted CAs and name url.host (SNI carries a host name).
http_reply http_post(const http_url& url, const std::map<std::string, std::string>& headers,
                     const std::string& content_type, const std::string& body,
                     std::chrono::steady_clock::time_point until, tls_client* tls = nullptr);

} // namespace cafmcp::otel::detail

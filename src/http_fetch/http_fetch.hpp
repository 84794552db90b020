#pragma once
// One blocking HTTP exchange with a deadline, over HTTP/1.1 or HTTP/1.1
// over TLS: what a background thread needs to talk to a service now and
// then (the OTLP exporter's POSTs; an authorization server's metadata,
// JWKS and introspection). Not for hot paths: one connection per call.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

namespace cafmcp::fetch {

struct http_url {
  bool tls = false;
  std::string host, port = "80", target = "/";
};

/// `http://host[:port][/path]` or `https://...` (IPv6 hosts in brackets).
std::optional<http_url> parse_http_url(const std::string& url);

/// What every https exchange of one user shares (OpenSSL's context with
/// its trust store loaded once).
struct tls_client;

/// Verifies against the system's CA store, or only against the PEM CAs in
/// `ca_file` when given; throws std::runtime_error if they cannot be loaded.
std::shared_ptr<tls_client> make_tls_client(const std::optional<std::string>& ca_file);

struct http_reply {
  int status = 0; // 0: no answer (unreachable, reset, TLS refused, too long, or the deadline passed)
  std::string body;
  std::string content_type;     // the raw header, empty when absent
  std::string www_authenticate; // the raw header, empty when absent
  std::string location;         // the raw header, empty when absent (redirects are not followed)
  std::string retry_after; // the raw header, empty when absent
  std::string failure;     // with status 0, when known: why (a TLS verification error)
};

/// What one exchange sends besides its url.
struct http_exchange {
  std::string method = "GET";
  std::map<std::string, std::string> headers; // lines with CR, LF or NUL are left out
  std::string content_type;                   // with a body
  std::string body;
  std::size_t max_body = 8 * 1024 * 1024; // a longer answer is no answer
};

/// `tls` is needed for an https url: the certificate must chain to its
/// trusted CAs and name url.host (SNI carries a host name).
http_reply http_send(const http_url& url, const http_exchange& what, std::chrono::steady_clock::time_point until,
                     tls_client* tls = nullptr);

/// A POST of `body` (the exporter's one exchange).
http_reply http_post(const http_url& url, const std::map<std::string, std::string>& headers,
                     const std::string& content_type, const std::string& body,
                     std::chrono::steady_clock::time_point until, tls_client* tls = nullptr);

} // namespace cafmcp::fetch

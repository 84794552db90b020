// On Boost.Beast: callers run on threads of their own (the exporter's batch
// processor, an authorization-server client), so a blocking exchange
// bounded by a deadline is the simplest correct client,
// and Beast's parser copes with everything a receiver may answer (chunked
// bodies, keep-alive, folded headers) that a hand-written one would not.
// Plain and TLS exchanges are the one sequence over either stream.
#include "http_fetch/http_fetch.hpp"

#include <stdexcept>
#include <type_traits>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

namespace cafmcp::fetch {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = net::ssl;

bool header_safe(const std::string& s) {
  for (unsigned char c : s)
    if (c == '\r' || c == '\n' || c == 0)
      return false;
  return true;
}

/// The certificate must name `host` (OpenSSL checks it with the chain and
/// reports a mismatch as such); SNI carries a host name, never an address.
bool prepare_tls(SSL* ssl, const std::string& host) {
  beast::error_code ec;
  net::ip::make_address(host, ec);
  if (!ec)
    return X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host.c_str()) == 1;
  return SSL_set1_host(ssl, host.c_str()) == 1 && SSL_set_tlsext_host_name(ssl, host.c_str()) == 1;
}

} // namespace

struct tls_client {
  ssl::context ctx{ssl::context::tls_client};
};

std::shared_ptr<tls_client> make_tls_client(const std::optional<std::string>& ca_file) {
  auto t = std::make_shared<tls_client>();
  t->ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3
                     | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1);
  beast::error_code ec;
  if (ca_file)
    t->ctx.load_verify_file(*ca_file, ec);
  else
    t->ctx.set_default_verify_paths(ec);
  if (ec)
    throw std::runtime_error("cannot load CA certificates" + (ca_file ? " from " + *ca_file : std::string())
                             + ": " + ec.message());
  t->ctx.set_verify_mode(ssl::verify_peer);
  return t;
}

std::optional<http_url> parse_http_url(const std::string& url) {
  http_url u;
  std::string rest;
  if (url.rfind("http://", 0) == 0) {
    rest = url.substr(7);
  } else if (url.rfind("https://", 0) == 0) {
    rest = url.substr(8);
    u.tls = true;
    u.port = "443";
  } else {
    return std::nullopt;
  }
  auto slash = rest.find('/');
  auto authority = rest.substr(0, slash);
  if (slash != std::string::npos)
    u.target = rest.substr(slash);
  auto bracket = authority.find(']');
  auto colon = authority.rfind(':');
  if (colon != std::string::npos && (bracket == std::string::npos || colon > bracket)) {
    u.port = authority.substr(colon + 1);
    authority.resize(colon);
    if (u.port.empty() || u.port.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
  }
  if (authority.size() > 2 && authority.front() == '[' && authority.back() == ']')
    authority = authority.substr(1, authority.size() - 2);
  if (authority.empty())
    return std::nullopt;
  u.host = authority;
  return u;
}

namespace {

template <class Stream>
http_reply exchange_over(Stream& stream, net::io_context& ioc, const http_url& url,
                         http::request<http::string_body>& req, std::size_t max_body,
                         std::chrono::steady_clock::duration left) {
  constexpr bool tls = !std::is_same_v<Stream, beast::tcp_stream>;
  http_reply out;
  net::ip::tcp::resolver resolver(ioc);
  beast::flat_buffer buffer;
  http::response_parser<http::string_body> parser;
  parser.body_limit(max_body);
  auto exchange = [&] {
    http::async_write(stream, req, [&](beast::error_code ec, std::size_t) {
      if (ec)
        return;
      http::async_read(stream, buffer, parser, [&](beast::error_code ec, std::size_t) {
        if (ec)
          return;
        auto& res = parser.get();
        out.status = static_cast<int>(res.result_int());
        out.body = std::move(res.body());
        if (auto it = res.find(http::field::retry_after); it != res.end())
          out.retry_after = std::string(it->value());
        if (auto it = res.find(http::field::content_type); it != res.end())
          out.content_type = std::string(it->value());
        if (auto it = res.find(http::field::www_authenticate); it != res.end())
          out.www_authenticate = std::string(it->value());
        if (auto it = res.find(http::field::location); it != res.end())
          out.location = std::string(it->value());
      });
    });
  };
  resolver.async_resolve(url.host, url.port, [&](beast::error_code ec, auto results) {
    if (ec)
      return;
    beast::get_lowest_layer(stream).async_connect(results, [&](beast::error_code ec, auto) {
      if (ec)
        return;
      if constexpr (tls) {
        if (!prepare_tls(stream.native_handle(), url.host)) {
          out.failure = "cannot set up TLS for " + url.host;
          return;
        }
        stream.async_handshake(ssl::stream_base::client, [&](beast::error_code ec) {
          if (ec) {
            auto verdict = SSL_get_verify_result(stream.native_handle());
            out.failure =
              "TLS handshake failed: "
              + (verdict != X509_V_OK ? std::string(X509_verify_cert_error_string(verdict)) : ec.message());
            return;
          }
          exchange();
        });
      } else {
        exchange();
      }
    });
  });
  // Whatever is still pending at the deadline is abandoned with ioc below.
  ioc.run_for(std::chrono::duration_cast<std::chrono::nanoseconds>(left));
  beast::error_code ignored;
  beast::get_lowest_layer(stream).socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  return out;
}

} // namespace

http_reply http_send(const http_url& url, const http_exchange& what, std::chrono::steady_clock::time_point until,
                     tls_client* tls) {
  auto left = until - std::chrono::steady_clock::now();
  if (left <= std::chrono::steady_clock::duration::zero())
    return {};
  auto verb = http::string_to_verb(what.method);
  if (verb == http::verb::unknown) {
    http_reply out;
    out.failure = "unknown HTTP method " + what.method;
    return out;
  }
  http::request<http::string_body> req{verb, url.target, 11};
  req.set(http::field::host, url.host + ":" + url.port);
  req.set(http::field::user_agent, "cafmcp/0.1");
  if (!what.content_type.empty())
    req.set(http::field::content_type, what.content_type);
  for (auto& [k, v] : what.headers)
    if (!k.empty() && header_safe(k) && header_safe(v)) // configured text must not split the request
      req.set(k, v);
  req.body() = what.body;
  if (!what.body.empty() || verb == http::verb::post || verb == http::verb::put)
    req.prepare_payload();
  net::io_context ioc;
  if (url.tls) {
    if (!tls) {
      http_reply out;
      out.failure = "https without a TLS setup";
      return out;
    }
    beast::ssl_stream<beast::tcp_stream> stream(ioc, tls->ctx);
    return exchange_over(stream, ioc, url, req, what.max_body, left);
  }
  beast::tcp_stream stream(ioc);
  return exchange_over(stream, ioc, url, req, what.max_body, left);
}

http_reply http_post(const http_url& url, const std::map<std::string, std::string>& headers,
                     const std::string& content_type, const std::string& body,
                     std::chrono::steady_clock::time_point until, tls_client* tls) {
  http_exchange what;
  what.method = "POST";
  what.headers = headers;
  what.content_type = content_type;
  what.body = body;
  return http_send(url, what, until, tls);
}

} // namespace cafmcp::fetch

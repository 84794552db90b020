// On Boost.Beast: the exporter runs on the batch processor's own thread, so
// a blocking exchange bounded by a deadline is the simplest correct client,
// and Beast's parser copes with everything a receiver may answer (chunked
// bodies, keep-alive, folded headers) that a hand-written one would not.
#include "http_post.hpp"

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace cafmcp::otel::detail {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

bool header_safe(const std::string& s) {
  for (unsigned char c : s)
    if (c == '\r' || c == '\n' || c == 0)
      return false;
  return true;
}

} // namespace

std::optional<http_url> parse_http_url(const std::string& url) {
  const std::string scheme = "http://";
  if (url.compare(0, scheme.size(), scheme) != 0)
    return std::nullopt;
  http_url u;
  auto rest = url.substr(scheme.size());
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

http_reply http_post(const http_url& url, const std::map<std::string, std::string>& headers,
                     const std::string& content_type, const std::string& body,
                     std::chrono::steady_clock::time_point until) {
  http_reply out;
  auto left = until - std::chrono::steady_clock::now();
  if (left <= std::chrono::steady_clock::duration::zero())
    return out;
  net::io_context ioc;
  net::ip::tcp::resolver resolver(ioc);
  beast::tcp_stream stream(ioc);
  http::request<http::string_body> req{http::verb::post, url.target, 11};
  req.set(http::field::host, url.host + ":" + url.port);
  req.set(http::field::content_type, content_type);
  req.set(http::field::user_agent, "cafmcp-otel/0.1");
  for (auto& [k, v] : headers)
    if (!k.empty() && header_safe(k) && header_safe(v)) // env text must not split the request
      req.set(k, v);
  req.body() = body;
  req.prepare_payload();
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  resolver.async_resolve(url.host, url.port, [&](beast::error_code ec, auto results) {
    if (ec)
      return;
    stream.async_connect(results, [&](beast::error_code ec, auto) {
      if (ec)
        return;
      http::async_write(stream, req, [&](beast::error_code ec, std::size_t) {
        if (ec)
          return;
        http::async_read(stream, buffer, res, [&](beast::error_code ec, std::size_t) {
          if (ec)
            return;
          out.status = static_cast<int>(res.result_int());
          out.body = res.body();
          if (auto it = res.find(http::field::retry_after); it != res.end())
            out.retry_after = std::string(it->value());
        });
      });
    });
  });
  // Whatever is still pending at the deadline is abandoned with ioc below.
  ioc.run_for(std::chrono::duration_cast<std::chrono::nanoseconds>(left));
  beast::error_code ignored;
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  return out;
}

} // namespace cafmcp::otel::detail

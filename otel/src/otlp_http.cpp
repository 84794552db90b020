// OTLP/HTTP with JSON, on Boost.Beast: the exporter runs on the batch
// processor's own thread, so a plain blocking request (bounded by a
// timeout) is the simplest correct client.
#include <random>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "cafmcp/otel/otlp.hpp"

namespace cafmcp::otel {
namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

struct url_parts {
  std::string host, port = "80", target = "/";
};

std::optional<url_parts> parse_url(const std::string& url) {
  const std::string scheme = "http://";
  if (url.compare(0, scheme.size(), scheme) != 0)
    return std::nullopt; // TLS is for a collector in front of us, not this client
  url_parts u;
  auto rest = url.substr(scheme.size());
  auto slash = rest.find('/');
  auto authority = rest.substr(0, slash);
  if (slash != std::string::npos)
    u.target = rest.substr(slash);
  auto colon = authority.rfind(':');
  auto bracket = authority.find(']');
  bool has_port = colon != std::string::npos && (bracket == std::string::npos || colon > bracket);
  if (has_port) {
    u.port = authority.substr(colon + 1);
    authority = authority.substr(0, colon);
  }
  if (authority.size() > 2 && authority.front() == '[')
    authority = authority.substr(1, authority.size() - 2);
  u.host = authority;
  return u;
}

struct reply {
  int status = 0; // 0: no answer (connection failed or timed out)
  std::string body;
  std::optional<std::chrono::milliseconds> retry_after;
};

reply post(const url_parts& u, const otlp_http_options& opts, const std::string& body) {
  net::io_context ioc;
  net::ip::tcp::resolver resolver(ioc);
  beast::tcp_stream stream(ioc);
  http::request<http::string_body> req{http::verb::post, u.target, 11};
  req.set(http::field::host, u.host + ":" + u.port);
  req.set(http::field::content_type, "application/json");
  req.set(http::field::user_agent, "cafmcp-otel/0.1");
  for (auto& [k, v] : opts.headers)
    req.set(k, v);
  req.body() = body;
  req.prepare_payload();
  beast::flat_buffer buffer;
  http::response<http::string_body> res;
  reply out;
  resolver.async_resolve(u.host, u.port, [&](beast::error_code ec, auto results) {
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
          if (auto it = res.find(http::field::retry_after); it != res.end()) {
            try {
              out.retry_after = std::chrono::seconds(std::stol(std::string(it->value())));
            } catch (...) { // an HTTP date: fall back to our own backoff
            }
          }
        });
      });
    });
  });
  ioc.run_for(opts.timeout);
  beast::error_code ignored;
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_both, ignored);
  return out;
}

bool retryable(int status) {
  return status == 0 || status == 429 || status == 502 || status == 503 || status == 504;
}

} // namespace

otlp_http_exporter::otlp_http_exporter(otlp_http_options opts, resource res, std::string scope)
  : opts_(std::move(opts)), resource_(std::move(res)), scope_(std::move(scope)) {}

bool otlp_http_exporter::export_spans(const std::vector<span_data>& spans) {
  if (spans.empty())
    return true;
  auto url = parse_url(opts_.endpoint);
  if (!url) {
    std::fprintf(stderr, "cafmcp-otel: unsupported endpoint %s (plain http:// only)\n",
                 opts_.endpoint.c_str());
    return false;
  }
  auto body = encode_otlp_json(resource_, scope_, spans);
  auto backoff = opts_.initial_backoff;
  thread_local std::mt19937 jitter{std::random_device{}()};
  for (int attempt = 1; attempt <= opts_.max_attempts; ++attempt) {
    auto r = post(*url, opts_, body);
    if (r.status >= 200 && r.status < 300) {
      auto j = nlohmann::json::parse(r.body, nullptr, false);
      if (j.is_object() && j.contains("partialSuccess")) {
        auto& ps = j["partialSuccess"];
        std::size_t n = 0;
        if (ps.contains("rejectedSpans"))
          n = ps["rejectedSpans"].is_string() ? std::stoull(ps["rejectedSpans"].get<std::string>())
                                              : ps["rejectedSpans"].get<std::size_t>();
        if (n > 0) {
          rejected_ += n;
          std::fprintf(stderr, "cafmcp-otel: receiver rejected %zu spans: %s\n", n,
                       ps.value("errorMessage", "").c_str());
        }
      }
      return true;
    }
    if (!retryable(r.status) || attempt == opts_.max_attempts) {
      std::fprintf(stderr, "cafmcp-otel: export failed (HTTP %d)\n", r.status);
      return false;
    }
    auto wait = r.retry_after.value_or(
      backoff + std::chrono::milliseconds(std::uniform_int_distribution<int>(0, static_cast<int>(backoff.count()))(jitter)));
    std::this_thread::sleep_for(std::min(wait, std::chrono::milliseconds(30000)));
    backoff *= 2;
  }
  return false;
}

json_lines_exporter::json_lines_exporter(std::string path, resource res, std::string scope)
  : out_(path == "-" ? stdout : std::fopen(path.c_str(), "a")), owned_(path != "-"),
    resource_(std::move(res)), scope_(std::move(scope)) {
  if (!out_)
    throw std::runtime_error("cannot open " + path);
}

json_lines_exporter::~json_lines_exporter() {
  if (owned_ && out_)
    std::fclose(out_);
}

bool json_lines_exporter::export_spans(const std::vector<span_data>& spans) {
  auto line = encode_otlp_json(resource_, scope_, spans) + "\n";
  bool ok = std::fwrite(line.data(), 1, line.size(), out_) == line.size();
  std::fflush(out_);
  return ok;
}

} // namespace cafmcp::otel

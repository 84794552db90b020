// The OTLP/HTTP exporter to an https receiver on 127.0.0.1 (Beast's
// server-side SSL stream, a certificate made for the test): it trusts the
// receiver only through certificate_file, checks the name, and does not
// retry a refused certificate.
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <gtest/gtest.h>

#include "cafmcp/otel/environment.hpp"
#include "cafmcp/otel/otlp_http_exporter.hpp"

#include "test_certificates.hpp"

namespace cafmcp::otel {
namespace {

using namespace std::chrono_literals;
namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;

/// Answers every POST with 200 {} over TLS, one connection at a time;
/// records the targets and bodies it got.
class tls_receiver {
public:
  tls_receiver(const std::string& cert, const std::string& key) : ctx_(ssl::context::tls_server) {
    ctx_.use_certificate_chain_file(cert);
    ctx_.use_private_key_file(key, ssl::context::pem);
    acceptor_.open(tcp::v4());
    acceptor_.bind({net::ip::make_address("127.0.0.1"), 0});
    acceptor_.listen();
    accept();
    thread_ = std::thread([this] { ioc_.run(); });
  }
  ~tls_receiver() {
    net::post(ioc_, [this] {
      acceptor_.close();
      ioc_.stop();
    });
    thread_.join();
  }
  std::string url(const std::string& host = "127.0.0.1") const {
    return "https://" + host + ":" + std::to_string(acceptor_.local_endpoint().port()) + "/v1/traces";
  }
  /// Waits (bounded) for `n` requests; returns the targets seen.
  std::vector<std::string> wait_for(std::size_t n, std::chrono::milliseconds timeout = 10s) {
    std::unique_lock<std::mutex> lk(mtx_);
    cv_.wait_for(lk, timeout, [&] { return targets_.size() >= n; });
    return targets_;
  }
  std::size_t handshakes_failed() const { return failed_.load(); }

private:
  struct conn {
    explicit conn(tcp::socket s, ssl::context& ctx) : stream(std::move(s), ctx) {}
    beast::ssl_stream<beast::tcp_stream> stream;
    beast::flat_buffer buf;
    http::request<http::string_body> req;
    http::response<http::string_body> res;
  };
  void accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket s) {
      if (ec)
        return;
      auto c = std::make_shared<conn>(std::move(s), ctx_);
      beast::get_lowest_layer(c->stream).expires_after(10s);
      c->stream.async_handshake(ssl::stream_base::server, [this, c](beast::error_code ec) {
        if (ec) {
          ++failed_;
          return;
        }
        http::async_read(c->stream, c->buf, c->req, [this, c](beast::error_code ec, std::size_t) {
          if (ec)
            return;
          {
            std::lock_guard<std::mutex> g(mtx_);
            targets_.push_back(std::string(c->req.target()) + " " + std::to_string(c->req.body().size()));
            cv_.notify_all();
          }
          c->res.result(http::status::ok);
          c->res.set(http::field::content_type, "application/json");
          c->res.keep_alive(false);
          c->res.body() = "{}";
          c->res.prepare_payload();
          http::async_write(c->stream, c->res, [c](beast::error_code, std::size_t) {
            c->stream.async_shutdown([c](beast::error_code) {});
          });
        });
      });
      accept();
    });
  }

  net::io_context ioc_;
  ssl::context ctx_;
  tcp::acceptor acceptor_{ioc_};
  std::thread thread_;
  std::mutex mtx_;
  std::condition_variable cv_;
  std::vector<std::string> targets_;
  std::atomic<std::size_t> failed_{0};
};

std::vector<span_data> one_span() {
  span_data s;
  s.context = {random_trace_id(), random_span_id(), 1, {}, false};
  s.name = "op";
  s.start_unix_nano = 1;
  s.end_unix_nano = 2;
  return {s};
}

class OtlpHttpsExporter : public ::testing::Test {
protected:
  static void SetUpTestSuite() { certs = new test::test_certificates(); }
  static void TearDownTestSuite() {
    delete certs;
    certs = nullptr;
  }
  static otlp_http_exporter exporter_for(const std::string& url, std::optional<std::string> ca) {
    otlp_http_options o;
    o.endpoint = url;
    o.certificate_file = std::move(ca);
    o.timeout = 5s;
    o.initial_backoff = 1ms;
    return otlp_http_exporter(o, resource::with_service("svc"), "scope");
  }
  static test::test_certificates* certs;
};

test::test_certificates* OtlpHttpsExporter::certs = nullptr;

TEST_F(OtlpHttpsExporter, PostsToAReceiverItsCertificateFileTrusts) {
  tls_receiver rx(certs->server_cert(), certs->server_key());
  for (auto host : {"127.0.0.1", "localhost"}) {
    auto exporter = exporter_for(rx.url(host), certs->ca_file());
    EXPECT_TRUE(exporter.export_spans(one_span())) << host;
    EXPECT_EQ(exporter.requests(), 1u);
  }
  auto seen = rx.wait_for(2);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].rfind("/v1/traces ", 0), 0u) << seen[0];
  EXPECT_NE(seen[0], "/v1/traces 0"); // the spans went along
}

TEST_F(OtlpHttpsExporter, AnUntrustedReceiverIsRefusedWithoutRetries) {
  tls_receiver rx(certs->server_cert(), certs->server_key());
  auto exporter = exporter_for(rx.url(), std::nullopt); // the system store has no test CA
  EXPECT_FALSE(exporter.export_spans(one_span()));
  EXPECT_EQ(exporter.requests(), 1u); // a refused certificate is refused again: no retry
  EXPECT_TRUE(rx.wait_for(0).empty());
}

TEST_F(OtlpHttpsExporter, ACertificateForAnotherNameIsRefused) {
  tls_receiver rx(certs->other_cert(), certs->other_key());
  for (auto host : {"127.0.0.1", "localhost"}) {
    auto exporter = exporter_for(rx.url(host), certs->ca_file());
    EXPECT_FALSE(exporter.export_spans(one_span())) << host;
  }
  EXPECT_TRUE(rx.wait_for(0).empty());
}

TEST(OtlpHttpsEnvironment, CertificateFileFromTheEnvironment) {
  ::unsetenv("OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE");
  ::unsetenv("OTEL_EXPORTER_OTLP_CERTIFICATE");
  EXPECT_FALSE(otlp_http_options_from_environment("https://x/v1/traces").certificate_file);
  ::setenv("OTEL_EXPORTER_OTLP_CERTIFICATE", "/ca/general.pem", 1);
  EXPECT_EQ(otlp_http_options_from_environment("https://x/v1/traces").certificate_file, "/ca/general.pem");
  ::setenv("OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE", "/ca/traces.pem", 1); // the signal's own wins
  EXPECT_EQ(otlp_http_options_from_environment("https://x/v1/traces").certificate_file, "/ca/traces.pem");
  ::unsetenv("OTEL_EXPORTER_OTLP_TRACES_CERTIFICATE");
  ::unsetenv("OTEL_EXPORTER_OTLP_CERTIFICATE");
}

} // namespace
} // namespace cafmcp::otel

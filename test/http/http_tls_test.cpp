// The Streamable HTTP transport serving TLS (tls_certificate_file and
// tls_private_key_file, a certificate made at test time): requests and
// keep-alive through the TLS bridge, a stream, clients that vanish, and a
// plain-HTTP client on the TLS port.
#include <thread>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "http_fixture.hpp"
#include "test_certificates.hpp"

namespace cafmcp::test {
namespace {

namespace net = boost::asio;
namespace ssl = net::ssl;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = net::ip::tcp;

/// One TLS connection, requests written and answers read synchronously,
/// every step with a deadline.
class tls_client {
public:
  tls_client(std::uint16_t port, const std::string& ca_file)
    : ctx_(ssl::context::tls_client), stream_(ioc_, ctx_) {
    ctx_.load_verify_file(ca_file);
    stream_.set_verify_mode(ssl::verify_peer);
    stream_.set_verify_callback(ssl::host_name_verification("127.0.0.1"));
    auto& tcp_layer = beast::get_lowest_layer(stream_);
    tcp_layer.expires_after(std::chrono::seconds(5));
    tcp_layer.connect(tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    stream_.handshake(ssl::stream_base::client);
    port_ = port;
  }
  void send(bhttp::verb verb, const std::string& body, const std::string& session = {}) {
    bhttp::request<bhttp::string_body> req{verb, "/mcp", 11};
    req.set(bhttp::field::host, "127.0.0.1:" + std::to_string(port_));
    req.set(bhttp::field::accept,
            verb == bhttp::verb::get ? "text/event-stream" : "application/json, text/event-stream");
    if (verb == bhttp::verb::post)
      req.set(bhttp::field::content_type, "application/json");
    if (!session.empty())
      req.set("Mcp-Session-Id", session);
    req.body() = body;
    req.prepare_payload();
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
    bhttp::write(stream_, req);
  }
  /// A whole response with a length.
  bhttp::response<bhttp::string_body> read() {
    bhttp::response<bhttp::string_body> res;
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
    bhttp::read(stream_, buf_, res);
    return res;
  }
  /// Only the head (an SSE stream's body never ends).
  int read_head() {
    parser_.emplace();
    beast::get_lowest_layer(stream_).expires_after(std::chrono::seconds(5));
    bhttp::read_header(stream_, buf_, *parser_);
    return parser_->get().result_int();
  }
  /// Gone without a goodbye (no close_notify, no FIN first).
  void vanish() {
    beast::error_code ignored;
    beast::get_lowest_layer(stream_).socket().close(ignored);
  }

private:
  net::io_context ioc_;
  ssl::context ctx_;
  beast::ssl_stream<beast::tcp_stream> stream_;
  beast::flat_buffer buf_;
  std::optional<bhttp::response_parser<bhttp::empty_body>> parser_;
  std::uint16_t port_ = 0;
};

class HttpTls : public HttpTest {
protected:
  static void SetUpTestSuite() { certs = new test_certificates(); }
  static void TearDownTestSuite() {
    delete certs;
    certs = nullptr;
  }
  http_options transport_options() override {
    auto o = HttpTest::transport_options();
    o.tls_certificate_file = certs->server_cert();
    o.tls_private_key_file = certs->server_key();
    return o;
  }
  /// Polls stats() (the counters have no signal) until `done`, at most 5 s.
  template <class F>
  bool eventually(F done) {
    auto until = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (!done(transport->stats())) {
      if (std::chrono::steady_clock::now() > until)
        return false;
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
  }
  static test_certificates* certs;
};

test_certificates* HttpTls::certs = nullptr;

TEST_F(HttpTls, SessionStreamAndVanishedClientsOverTls) {
  tls_client c(port, certs->ca_file());
  c.send(bhttp::verb::post, initialize_body());
  auto init = c.read();
  ASSERT_EQ(init.result_int(), 200) << init.body();
  std::string session(init["Mcp-Session-Id"]);
  ASSERT_FALSE(session.empty());
  // Keep-alive: the next requests on the same TLS connection.
  c.send(bhttp::verb::post, initialized_body, session);
  EXPECT_EQ(c.read().result_int(), 202);
  c.send(bhttp::verb::post, rpc(2, "tools/call", {{"name", "hello"}, {"arguments", json::object()}}),
         session);
  auto call = c.read();
  ASSERT_EQ(call.result_int(), 200);
  EXPECT_NE(call.body().find("\"ok\""), std::string::npos) << call.body();

  tls_client stream(port, certs->ca_file());
  stream.send(bhttp::verb::get, "", session);
  ASSERT_EQ(stream.read_head(), 200);
  EXPECT_TRUE(eventually([](const http_stats& s) { return s.open_streams == 1 && s.open_connections == 2; }));
  // Both clients vanish: the bridge tells each http_conn, which closes.
  stream.vanish();
  c.vanish();
  EXPECT_TRUE(eventually([](const http_stats& s) { return s.open_streams == 0 && s.open_connections == 0; }))
    << transport->stats().open_connections << " connections, " << transport->stats().open_streams
    << " streams";
}

TEST_F(HttpTls, PlainHttpOnTheTlsPortGetsNoAnswer) {
  raw_http plain(port);
  plain.send("POST", initialize_body());
  EXPECT_THROW(plain.read_reply(std::chrono::milliseconds(5000)), std::runtime_error);
  // The server still serves TLS.
  tls_client c(port, certs->ca_file());
  c.send(bhttp::verb::post, initialize_body());
  EXPECT_EQ(c.read().result_int(), 200);
}

TEST(HttpTlsOptions, HalfATlsSetupOrAMismatchedKeyFailsStart) {
  test_certificates certs;
  server srv(http_test_server_options());
  http_options o;
  o.port = 0;
  o.tls_certificate_file = certs.server_cert();
  EXPECT_THROW(streamable_http(srv, o).start(), startup_error);
  o.tls_private_key_file = certs.other_key();
  try {
    streamable_http(srv, o).start();
    ADD_FAILURE() << "started";
  } catch (const startup_error& e) {
    EXPECT_NE(std::string(e.what()).find(certs.other_key()), std::string::npos) << e.what();
  }
}

} // namespace
} // namespace cafmcp::test

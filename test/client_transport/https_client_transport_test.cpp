// The Streamable HTTP client transport over https, against the real
// everything-server serving TLS with a certificate made for the test.
#include <gtest/gtest.h>

#include "cafmcp/http_client_transport.hpp"

#include "client_transport/http_stream_control.hpp"
#include "support.hpp"
#include "test_certificates.hpp"

namespace cafmcp::test {
namespace {

class HttpsClientTransport : public ::testing::Test {
protected:
  static void SetUpTestSuite() { certs = new test_certificates(); }
  static void TearDownTestSuite() {
    delete certs;
    certs = nullptr;
  }

  /// An everything-server serving `cert`/`key` over TLS.
  static std::unique_ptr<http_server_process> serve(const std::string& cert, const std::string& key,
                                                    std::vector<std::string> extra = {}) {
    std::vector<std::string> argv{
      bin("everything-server"), "--http", "--port", "0", "--tls-cert", cert, "--tls-key", key};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return std::make_unique<http_server_process>(argv);
  }
  static std::string url_for(const std::string& host, const http_server_process& s) {
    return "https://" + host + ":" + std::to_string(s.port()) + "/mcp";
  }
  static std::unique_ptr<http_client_transport> connect(recorder& r, const std::string& url,
                                                        std::optional<std::string> ca_file) {
    http_client_options o;
    o.url = url;
    o.ca_file = std::move(ca_file);
    auto t = make_http_client_transport(o);
    t->start(r.handlers());
    return t;
  }
  /// What the first request got back when TLS refused the server.
  static std::string refusal(recorder& r, client_transport& t) {
    t.send(request(1, "initialize", initialize_params()));
    auto res = r.response(1);
    if (!res || !res->contains("error"))
      return "not refused: " + (res ? res->dump() : std::string("no answer"));
    return (*res)["error"].value("message", "");
  }
  static bool method_is(const json& m, const std::string& method) { return m.value("method", "") == method; }

  static test_certificates* certs;
};

test_certificates* HttpsClientTransport::certs = nullptr;

TEST_F(HttpsClientTransport, ServesAndCallsOverTlsWithTheGetStream) {
  auto server = serve(certs->server_cert(), certs->server_key());
  ASSERT_EQ(server->url().rfind("https://", 0), 0u) << server->url();
  recorder r;
  auto t = connect(r, server->url(), certs->ca_file());
  handshake(*t, r);
  EXPECT_FALSE(t->session_id().empty());
  ASSERT_TRUE(stream_control(*t).wait_get_stream(10s));
  // A streamed answer (progress first) on the POST's own TLS connection.
  t->send(call_tool(5, "test_tool_with_progress", json::object(), {{"progressToken", "p-1"}}));
  auto res = r.response(5, 20s);
  ASSERT_TRUE(res);
  ASSERT_TRUE(res->contains("result")) << res->dump();
  EXPECT_GE(r.count([](const json& m) { return method_is(m, "notifications/progress"); }), 3u);
  // list_changed belongs to no request: the GET stream, over TLS, carries it.
  t->send(call_tool(6, "add_tool", {{"name", "https_added"}}));
  res = r.response(6);
  ASSERT_TRUE(res);
  EXPECT_FALSE((*res)["result"].value("isError", false)) << res->dump();
  EXPECT_TRUE(r.wait_for([](const json& m) { return method_is(m, "notifications/tools/list_changed"); }));
  t->close();
  ASSERT_TRUE(r.wait_closed());
  EXPECT_EQ(r.closed_count(), 1);
}

TEST_F(HttpsClientTransport, HostNameIsVerifiedWithSni) {
  auto server = serve(certs->server_cert(), certs->server_key());
  recorder r;
  auto t = connect(r, url_for("localhost", *server), certs->ca_file());
  auto init = handshake(*t, r);
  EXPECT_EQ(init["serverInfo"]["name"], "cafmcp-everything-server");
  t->send(request(2, "ping"));
  ASSERT_TRUE(r.response(2));
}

TEST_F(HttpsClientTransport, CertificateForAnotherNameIsRefused) {
  auto server = serve(certs->other_cert(), certs->other_key());
  {
    recorder r;
    auto t = connect(r, url_for("localhost", *server), certs->ca_file());
    auto why = refusal(r, *t);
    EXPECT_NE(why.find("TLS handshake failed"), std::string::npos) << why;
    EXPECT_NE(why.find("hostname mismatch"), std::string::npos) << why;
  }
  {
    recorder r;
    auto t = connect(r, server->url(), certs->ca_file()); // 127.0.0.1
    auto why = refusal(r, *t);
    EXPECT_NE(why.find("IP address mismatch"), std::string::npos) << why;
  }
}

TEST_F(HttpsClientTransport, UntrustedCaIsRefusedUnlessGivenAsCaFile) {
  auto server = serve(certs->server_cert(), certs->server_key());
  {
    recorder r;
    auto t = connect(r, server->url(), std::nullopt); // the system's store knows no test CA
    auto why = refusal(r, *t);
    EXPECT_NE(why.find("TLS handshake failed"), std::string::npos) << why;
    EXPECT_NE(why.find("issuer certificate"), std::string::npos) << why;
  }
  recorder r;
  auto t = connect(r, server->url(), certs->ca_file());
  handshake(*t, r);
}

TEST_F(HttpsClientTransport, SessionsMoveBetweenTlsLoops) {
  // Four loops: a connection whose session lives on another loop is handed
  // over there, the bridged socket with it.
  auto server = serve(certs->server_cert(), certs->server_key(), {"--event-loops", "4"});
  std::vector<std::unique_ptr<recorder>> rs;
  std::vector<std::unique_ptr<http_client_transport>> ts;
  for (int i = 0; i < 3; ++i) {
    rs.push_back(std::make_unique<recorder>());
    ts.push_back(connect(*rs.back(), server->url(), certs->ca_file()));
    handshake(*ts.back(), *rs.back());
  }
  for (int round = 0; round < 4; ++round)
    for (std::size_t i = 0; i < ts.size(); ++i) {
      int id = 10 + round;
      ts[i]->send(request(id, "ping"));
      ASSERT_TRUE(rs[i]->response(id)) << "client " << i << " round " << round;
    }
}

TEST_F(HttpsClientTransport, ServerRefusesToStartWithHalfATlsSetup) {
  try {
    http_server_process half(
      {bin("everything-server"), "--http", "--port", "0", "--tls-cert", certs->server_cert()});
    ADD_FAILURE() << "started: " << half.url();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("certificate file and a private key file"), std::string::npos)
      << e.what();
  }
  try {
    http_server_process wrong({bin("everything-server"), "--http", "--port", "0", "--tls-cert",
                               certs->server_cert(), "--tls-key", certs->other_key()});
    ADD_FAILURE() << "started: " << wrong.url();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("private key"), std::string::npos) << e.what();
  }
}

TEST(HttpsClientTransportOptions, UnreadableCaFileIsRefused) {
  http_client_options o;
  o.url = "https://127.0.0.1:1/mcp";
  o.ca_file = "/nonexistent/ca.pem";
  try {
    make_http_client_transport(o);
    ADD_FAILURE() << "accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/ca.pem"), std::string::npos) << e.what();
  }
  o.ca_file.reset(); // the system store
  EXPECT_NO_THROW(make_http_client_transport(o));
}

} // namespace
} // namespace cafmcp::test

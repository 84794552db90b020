// OTLP/JSON shape and the OTLP/HTTP exporter against a real loopback
// receiver (retry after 503 included).
#include <gtest/gtest.h>

#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

#include "cafmcp/otel/environment.hpp"
#include "cafmcp/otel/mcp_tracer.hpp"
#include "cafmcp/otel/otlp.hpp"

namespace cafmcp::otel {
namespace {

using json = nlohmann::json;

span_data sample_span() {
  span_data s;
  s.context = {random_trace_id(), random_span_id(), 1, "k=v", false};
  s.parent = random_span_id();
  s.name = "tools/call add_resource";
  s.kind = span_kind::server;
  s.start_unix_nano = 1700000000000000000ull;
  s.end_unix_nano = 1700000000000001000ull;
  s.attributes = {{"mcp.method.name", std::string("tools/call")}, {"n", std::int64_t{9007199254740993}},
                  {"x", 1.5}, {"ok", true}};
  s.events.push_back({1700000000000000500ull, "evt", {}});
  s.status = status_code::error;
  s.status_message = "boom";
  return s;
}

TEST(OtlpJson, FollowsTheJsonMapping) {
  auto s = sample_span();
  auto j = json::parse(encode_otlp_json(resource::with_service("svc"), "scope", {s}));
  auto& rs = j["resourceSpans"][0];
  EXPECT_EQ(rs["resource"]["attributes"][0]["key"], "service.name");
  EXPECT_EQ(rs["resource"]["attributes"][0]["value"]["stringValue"], "svc");
  auto& span = rs["scopeSpans"][0]["spans"][0];
  EXPECT_EQ(rs["scopeSpans"][0]["scope"]["name"], "scope");
  EXPECT_EQ(span["traceId"], to_hex(s.context.trace)); // hex, not base64
  EXPECT_EQ(span["spanId"].get<std::string>().size(), 16u);
  EXPECT_EQ(span["parentSpanId"], to_hex(s.parent));
  EXPECT_EQ(span["kind"], 2);                            // enums as integers
  EXPECT_EQ(span["startTimeUnixNano"], "1700000000000000000"); // int64 as strings
  EXPECT_EQ(span["attributes"][1]["value"]["intValue"], "9007199254740993");
  EXPECT_EQ(span["attributes"][2]["value"]["doubleValue"], 1.5);
  EXPECT_EQ(span["attributes"][3]["value"]["boolValue"], true);
  EXPECT_EQ(span["status"]["code"], 2);
  EXPECT_EQ(span["status"]["message"], "boom");
  EXPECT_EQ(span["events"][0]["timeUnixNano"], "1700000000000000500");
  EXPECT_EQ(span["traceState"], "k=v");
}

// Answers each connection from a script of (status, extra headers).
class loopback_receiver {
public:
  explicit loopback_receiver(std::vector<std::pair<int, std::string>> script) : script_(std::move(script)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(fd_, 8);
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~loopback_receiver() {
    ::shutdown(fd_, SHUT_RDWR);
    ::close(fd_);
    thread_.join();
  }
  std::uint16_t port() const { return port_; }
  std::vector<std::string> requests; // raw head + body, in order

private:
  void serve() {
    for (auto& [status, headers] : script_) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0)
        return;
      std::string data;
      char buf[65536];
      std::size_t need = std::string::npos;
      while (need == std::string::npos || data.size() < need) {
        auto n = ::recv(c, buf, sizeof buf, 0);
        if (n <= 0)
          break;
        data.append(buf, static_cast<std::size_t>(n));
        auto end = data.find("\r\n\r\n");
        if (need == std::string::npos && end != std::string::npos) {
          auto cl = data.find("Content-Length: ");
          need = end + 4 + (cl == std::string::npos ? 0 : std::stoul(data.substr(cl + 16)));
        }
      }
      requests.push_back(data);
      std::string body = status == 200 ? R"({"partialSuccess":{}})" : R"({"code":14,"message":"busy"})";
      std::string reply = "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Type: application/json\r\n"
                          + headers + "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
      ::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
      ::close(c);
    }
  }
  std::vector<std::pair<int, std::string>> script_;
  int fd_;
  std::uint16_t port_ = 0;
  std::thread thread_;
};

TEST(OtlpHttpExporter, PostsJsonToV1TracesAndRetriesA503) {
  std::vector<std::pair<int, std::string>> script = {{503, "Retry-After: 0\r\n"}, {200, ""}};
  std::vector<std::string> seen;
  {
    loopback_receiver rx(script);
    otlp_http_options o;
    o.endpoint = "http://127.0.0.1:" + std::to_string(rx.port()) + "/v1/traces";
    o.headers["x-api-key"] = "secret";
    otlp_http_exporter exporter(o, resource::with_service("svc"), "scope");
    EXPECT_TRUE(exporter.export_spans({sample_span()}));
    seen = rx.requests;
  }
  ASSERT_EQ(seen.size(), 2u);
  for (auto& r : seen) {
    EXPECT_EQ(r.rfind("POST /v1/traces HTTP/1.1", 0), 0u);
    EXPECT_NE(r.find("Content-Type: application/json"), std::string::npos);
    EXPECT_NE(r.find("x-api-key: secret"), std::string::npos);
    auto body = json::parse(r.substr(r.find("\r\n\r\n") + 4));
    EXPECT_EQ(body["resourceSpans"][0]["scopeSpans"][0]["spans"].size(), 1u);
  }
}

TEST(OtlpHttpExporter, DoesNotRetryA400) {
  loopback_receiver rx({{400, ""}});
  otlp_http_options o;
  o.endpoint = "http://127.0.0.1:" + std::to_string(rx.port()) + "/v1/traces";
  otlp_http_exporter exporter(o, resource::with_service("svc"), "scope");
  EXPECT_FALSE(exporter.export_spans({sample_span()}));
}

TEST(Environment, TracingIsOffWithoutADestinationOrWhenDisabled) {
  ::unsetenv("OTEL_EXPORTER_OTLP_ENDPOINT");
  ::unsetenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
  ::unsetenv("OTEL_TRACES_EXPORTER");
  EXPECT_EQ(provider_from_environment(), nullptr);
  EXPECT_EQ(make_mcp_tracer(nullptr), nullptr); // the core's hook stays null: free
  ::setenv("OTEL_SDK_DISABLED", "true", 1);
  provider_settings s;
  s.otlp_endpoint = "http://127.0.0.1:1";
  EXPECT_EQ(provider_from_environment(s), nullptr);
  ::unsetenv("OTEL_SDK_DISABLED");
  EXPECT_NE(provider_from_environment(s), nullptr);
}

} // namespace
} // namespace cafmcp::otel

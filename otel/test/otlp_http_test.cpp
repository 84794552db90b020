// The OTLP/HTTP exporter against a real HTTP server on 127.0.0.1: request
// shape, retries (Retry-After in both forms), giving up, partial success.
#include <future>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cafmcp/otel/otlp_http_exporter.hpp"

#include "loopback_http_server.hpp"
#include "retry_after.hpp"

namespace cafmcp::otel {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;
using testing::http_response;
using testing::loopback_http_server;

std::vector<span_data> one_span() {
  span_data s;
  s.context = {random_trace_id(), random_span_id(), 1, {}, false};
  s.name = "op";
  s.start_unix_nano = 1;
  s.end_unix_nano = 2;
  return {s};
}

otlp_http_exporter exporter_for(const loopback_http_server& rx, otlp_http_options o = {}) {
  o.endpoint = rx.url("/v1/traces");
  return otlp_http_exporter(o, resource::with_service("svc"), "scope");
}

TEST(OtlpHttpExporter, PostsJsonToV1TracesAndRetriesA503) {
  loopback_http_server rx(
    {http_response(503, "Retry-After: 0\r\n", R"({"code":14,"message":"busy"})"), http_response(200)});
  otlp_http_options o;
  o.protocol = otlp_protocol::http_json;
  o.headers["x-api-key"] = "secret";
  o.initial_backoff = 1h; // only Retry-After: 0 lets the retry come at once
  auto exporter = exporter_for(rx, o);
  auto spans = one_span();
  EXPECT_TRUE(exporter.export_spans(spans));
  EXPECT_EQ(exporter.requests(), 2u);
  auto seen = rx.wait_for(2);
  ASSERT_EQ(seen.size(), 2u);
  for (auto& r : seen) {
    EXPECT_EQ(r.request_line, "POST /v1/traces HTTP/1.1");
    EXPECT_EQ(r.headers["content-type"], "application/json");
    EXPECT_EQ(r.headers["x-api-key"], "secret");
    auto body = json::parse(r.body);
    auto& span = body["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
    EXPECT_EQ(span["traceId"], to_hex(spans[0].context.trace));
  }
}

// OTLP's default encoding: the raw id bytes and the name are in the body.
TEST(OtlpHttpExporter, PostsProtobufByDefault) {
  loopback_http_server rx({http_response(200)});
  auto exporter = exporter_for(rx);
  auto spans = one_span();
  EXPECT_TRUE(exporter.export_spans(spans));
  auto seen = rx.wait_for(1);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].headers["content-type"], "application/x-protobuf");
  auto& trace = spans[0].context.trace;
  EXPECT_NE(seen[0].body.find(std::string(reinterpret_cast<const char*>(trace.data()), trace.size())),
            std::string::npos);
  EXPECT_NE(seen[0].body.find("\x2a\x02op"), std::string::npos); // Span.name (5), length 2
  EXPECT_EQ(seen[0].body.find("traceId"), std::string::npos);
}

TEST(OtlpHttpExporter, RetriesEachRetryableStatus) {
  loopback_http_server rx({http_response(429, "Retry-After: 0\r\n"), http_response(502, "Retry-After: 0\r\n"),
                           http_response(504, "Retry-After: 0\r\n"), http_response(200)});
  auto exporter = exporter_for(rx);
  EXPECT_TRUE(exporter.export_spans(one_span()));
  EXPECT_EQ(exporter.requests(), 4u);
}

TEST(OtlpHttpExporter, DoesNotRetryOtherStatuses) {
  for (int status : {400, 401, 404, 500}) {
    loopback_http_server rx({http_response(status), http_response(200)});
    auto exporter = exporter_for(rx);
    EXPECT_FALSE(exporter.export_spans(one_span())) << status;
    EXPECT_EQ(exporter.requests(), 1u) << status;
  }
}

TEST(OtlpHttpExporter, GivesUpWhenRetryAfterPointsPastTheDeadline) {
  loopback_http_server rx({http_response(503, "Retry-After: 3600\r\n"), http_response(200)});
  otlp_http_options o;
  o.timeout = 1800s; // the hour the collector asks for is past it
  auto exporter = exporter_for(rx, o);
  // Giving up returns at once; sitting out the wait would outlast the bound.
  auto exported = std::async(std::launch::async, [&] { return exporter.export_spans(one_span()); });
  ASSERT_EQ(exported.wait_for(60s), std::future_status::ready) << "waited for the Retry-After";
  EXPECT_FALSE(exported.get());
  EXPECT_EQ(exporter.requests(), 1u);
}

TEST(OtlpHttpExporter, StopsAfterMaxAttempts) {
  std::vector<std::string> script(3, http_response(503, "Retry-After: 0\r\n"));
  loopback_http_server rx(script);
  otlp_http_options o;
  o.max_attempts = 3;
  auto exporter = exporter_for(rx, o);
  EXPECT_FALSE(exporter.export_spans(one_span()));
  EXPECT_EQ(exporter.requests(), 3u);
}

TEST(OtlpHttpExporter, ShutdownEndsABackoffWait) {
  loopback_http_server rx({http_response(503), http_response(200)}); // no Retry-After: our backoff
  otlp_http_options o;
  o.initial_backoff = 1h;
  o.max_backoff = 1h;
  o.timeout = 3h;
  auto exporter = exporter_for(rx, o);
  std::thread stopper([&] {
    rx.wait_for(1); // the first attempt was answered: the exporter is (about to be) waiting
    exporter.shutdown();
  });
  EXPECT_FALSE(exporter.export_spans(one_span()));
  stopper.join();
  EXPECT_EQ(exporter.requests(), 1u);
  EXPECT_FALSE(exporter.export_spans(one_span())); // and refuses afterwards
}

TEST(OtlpHttpExporter, AnUnreachableReceiverFailsWithinTheTimeout) {
  int port;
  {
    loopback_http_server probe({}); // a port that was free a moment ago
    port = std::stoi(probe.url().substr(std::string("http://127.0.0.1:").size()));
  }
  otlp_http_options o;
  o.endpoint = "http://127.0.0.1:" + std::to_string(port) + "/v1/traces";
  o.timeout = 1s;
  o.initial_backoff = 10ms;
  otlp_http_exporter exporter(o, resource::with_service("svc"), "scope");
  EXPECT_FALSE(exporter.export_spans(one_span()));
  EXPECT_GE(exporter.requests(), 1u);
}

TEST(OtlpHttpExporter, CountsPartialSuccessAndReadsChunkedReplies) {
  std::string chunked = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                        "Connection: close\r\n\r\n";
  for (std::string piece : {R"({"partialSuccess")", R"(:{"rejectedSpans":"2","errorMessage")", R"(:"x"}})"}) {
    char size[16];
    std::snprintf(size, sizeof size, "%zx\r\n", piece.size());
    chunked += size + piece + "\r\n";
  }
  chunked += "0\r\n\r\n";
  loopback_http_server rx({chunked, http_response(200, "", R"({"partialSuccess":{}})")});
  otlp_http_options json_encoding;
  json_encoding.protocol = otlp_protocol::http_json;
  auto exporter = exporter_for(rx, json_encoding);
  EXPECT_TRUE(exporter.export_spans(one_span())); // partial success is not retried
  EXPECT_EQ(exporter.rejected(), 2u);
  EXPECT_TRUE(exporter.export_spans(one_span()));
  EXPECT_EQ(exporter.rejected(), 2u);
  EXPECT_EQ(exporter.requests(), 2u);
}

// rejectedSpans is an int64 the collector writes: a negative one (read with
// strtoull it was 2^64 - 1 spans) or a non-number rejects nothing, and a
// count past int64 is the most there can be.
TEST(OtlpHttpExporter, ANegativeOrUnreadableRejectedCountRejectsNothing) {
  loopback_http_server rx({http_response(200, "", R"({"partialSuccess":{"rejectedSpans":"-1"}})"),
                           http_response(200, "", R"({"partialSuccess":{"rejectedSpans":-3}})"),
                           http_response(200, "", R"({"partialSuccess":{"rejectedSpans":"2x"}})"),
                           http_response(200, "", R"({"partialSuccess":{"rejectedSpans":"3"}})")});
  otlp_http_options json_encoding;
  json_encoding.protocol = otlp_protocol::http_json;
  auto exporter = exporter_for(rx, json_encoding);
  for (int i = 0; i < 4; ++i)
    EXPECT_TRUE(exporter.export_spans(one_span()));
  EXPECT_EQ(exporter.rejected(), 3u);
  EXPECT_EQ(exporter.requests(), 4u);
}

// ExportTraceServiceResponse{partial_success{rejected_spans: 2, error_message: "x"}}.
TEST(OtlpHttpExporter, CountsPartialSuccessInAProtobufReply) {
  using namespace std::string_literals;
  loopback_http_server rx({http_response(200, "", "\x0a\x05\x08\x02\x12\x01x"s),
                           http_response(200, "", "\x0a\x00"s), http_response(200, "", "\x0a\x09"s)});
  auto exporter = exporter_for(rx);
  EXPECT_TRUE(exporter.export_spans(one_span()));
  EXPECT_EQ(exporter.rejected(), 2u);
  EXPECT_TRUE(exporter.export_spans(one_span())); // an empty partial_success: nothing rejected
  EXPECT_TRUE(exporter.export_spans(one_span())); // a malformed reply is still a 200
  EXPECT_EQ(exporter.rejected(), 2u);
}

TEST(OtlpHttpExporter, RefusesNonHttpEndpoints) {
  otlp_http_options o;
  o.endpoint = "grpc://collector.example/v1/traces";
  otlp_http_exporter exporter(o, resource::with_service("svc"), "scope");
  EXPECT_FALSE(exporter.export_spans(one_span()));
  EXPECT_EQ(exporter.requests(), 0u);
  // What a program checks at start-up, before any export fails.
  EXPECT_FALSE(is_supported_endpoint(o.endpoint));
  EXPECT_FALSE(is_supported_endpoint("localhost:4318/v1/traces"));
  EXPECT_FALSE(is_supported_endpoint("http://:4318/v1/traces"));
  EXPECT_FALSE(is_supported_endpoint("http://localhost:port/v1/traces"));
  EXPECT_TRUE(is_supported_endpoint("http://localhost:4318/v1/traces"));
  EXPECT_TRUE(is_supported_endpoint("http://[::1]:4318/v1/traces"));
  EXPECT_TRUE(is_supported_endpoint("https://collector.example/v1/traces"));
}

TEST(RetryAfter, SecondsAndHttpDates) {
  auto now = std::chrono::system_clock::from_time_t(784111777); // Sun, 06 Nov 1994 08:49:37 GMT
  EXPECT_EQ(detail::parse_retry_after("0", now), 0ms);
  EXPECT_EQ(detail::parse_retry_after(" 120 ", now), 120s);
  EXPECT_EQ(detail::parse_retry_after("Sun, 06 Nov 1994 08:50:07 GMT", now), 30s);
  EXPECT_EQ(detail::parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now), 0ms); // past
  EXPECT_FALSE(detail::parse_retry_after("", now));
  EXPECT_FALSE(detail::parse_retry_after("-5", now));
  EXPECT_FALSE(detail::parse_retry_after("soon", now));
  EXPECT_FALSE(detail::parse_retry_after("Sun, 06 Nov 1994 08:50:07", now)); // no GMT
}

// Dates outside system_clock's range (nanoseconds: ~1678-2262) overflowed
// its conversion (UBSan: signed overflow) and came out as any wait.
TEST(RetryAfter, DatesFarFromNowAreAWaitOfAYearOrNone) {
  auto now = std::chrono::system_clock::from_time_t(784111777);
  EXPECT_EQ(detail::parse_retry_after("Fri, 31 Dec 9999 23:59:59 GMT", now), std::chrono::hours(24 * 365));
  EXPECT_EQ(detail::parse_retry_after("Wed, 01 Jan 2300 00:00:00 GMT", now), std::chrono::hours(24 * 365));
  EXPECT_EQ(detail::parse_retry_after("Mon, 01 Jan 1600 00:00:00 GMT", now), 0ms);
  EXPECT_EQ(detail::parse_retry_after("Sun, 06 Nov 1994 09:49:37 GMT", now), std::chrono::hours(1));
}

// Found by fuzz/collector_reply: delay-seconds of up to nine digits (31
// years) came back as they were, past the cap a date gets.
TEST(RetryAfter, DelaySecondsBeyondAYearAreAYear) {
  auto now = std::chrono::system_clock::from_time_t(784111777);
  EXPECT_EQ(detail::parse_retry_after("  99999999 ", now), std::chrono::hours(24 * 365));
  EXPECT_EQ(detail::parse_retry_after("999999999", now), std::chrono::hours(24 * 365));
  EXPECT_EQ(detail::parse_retry_after("31536000", now), std::chrono::hours(24 * 365)); // exactly a year
  EXPECT_EQ(detail::parse_retry_after("31535999", now), std::chrono::seconds(31535999));
}

} // namespace
} // namespace cafmcp::otel

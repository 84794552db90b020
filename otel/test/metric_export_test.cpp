// OTLP metrics: the JSON encoding field by field, and the periodic reader
// posting to /v1/metrics on a scripted loopback server (retried after a
// 503, the last values exported at shutdown), from cafmcp's own registry.
#include <cafmcp/metrics.hpp>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cafmcp/otel/mcp_metrics.hpp"
#include "cafmcp/otel/metric_exporter.hpp"
#include "cafmcp/otel/otlp_metrics_json.hpp"

#include "loopback_http_server.hpp"

using namespace cafmcp::otel;
using cafmcp::otel::testing::http_response;
using cafmcp::otel::testing::loopback_http_server;
using json = nlohmann::json;

namespace {

metric_batch sample_batch() {
  metric_batch b;
  b.start_unix_nano = 1000;
  b.time_unix_nano = 2000;
  metric_data h{"mcp.server.operation.duration",
                "MCP request duration",
                "s",
                metric_type::histogram,
                false,
                {0.01, 0.1},
                {}};
  metric_point_data p;
  p.attributes = {{"mcp.method.name", std::string("tools/call")}};
  p.bucket_counts = {1, 0, 2};
  p.count = 3;
  p.sum = 2.5;
  h.points.push_back(p);
  metric_data s{"cafmcp.sessions", "Sessions", "{session}", metric_type::sum, false, {}, {}};
  metric_point_data v;
  v.value = 4;
  s.points.push_back(v);
  metric_data g{"g", "", "1", metric_type::gauge, false, {}, {}};
  g.points.push_back(v);
  metric_data empty{"nothing", "", "1", metric_type::sum, true, {}, {}};
  b.metrics = {h, s, g, empty};
  return b;
}

} // namespace

TEST(OtlpMetricsJson, FollowsTheOtlpJsonMapping) {
  auto body =
    json::parse(encode_otlp_metrics_json(resource::with_service("svc"), {"cafmcp", "1.0"}, sample_batch()));
  auto& rm = body["resourceMetrics"][0];
  EXPECT_EQ(rm["resource"]["attributes"][0]["key"], "service.name");
  auto& sm = rm["scopeMetrics"][0];
  EXPECT_EQ(sm["scope"]["name"], "cafmcp");
  EXPECT_EQ(sm["scope"]["version"], "1.0");
  auto& metrics = sm["metrics"];
  ASSERT_EQ(metrics.size(), 3u); // the one without points is left out
  auto& h = metrics[0];
  EXPECT_EQ(h["name"], "mcp.server.operation.duration");
  EXPECT_EQ(h["unit"], "s");
  EXPECT_EQ(h["histogram"]["aggregationTemporality"], 2);
  auto& hp = h["histogram"]["dataPoints"][0];
  EXPECT_EQ(hp["count"], "3"); // 64-bit integers as strings
  EXPECT_EQ(hp["sum"], 2.5);
  EXPECT_EQ(hp["bucketCounts"], json({"1", "0", "2"}));
  EXPECT_EQ(hp["explicitBounds"], json({0.01, 0.1}));
  EXPECT_EQ(hp["startTimeUnixNano"], "1000");
  EXPECT_EQ(hp["timeUnixNano"], "2000");
  EXPECT_EQ(hp["attributes"][0]["value"]["stringValue"], "tools/call");
  auto& s = metrics[1]["sum"];
  EXPECT_EQ(s["isMonotonic"], false);
  EXPECT_EQ(s["aggregationTemporality"], 2);
  EXPECT_EQ(s["dataPoints"][0]["asInt"], "4");
  EXPECT_EQ(s["dataPoints"][0]["attributes"], json::array());
  auto& g = metrics[2]["gauge"]["dataPoints"][0];
  EXPECT_EQ(g["asInt"], "4");
  EXPECT_FALSE(g.contains("startTimeUnixNano"));
}

TEST(PeriodicMetricReader, ExportsTheRegistryToV1MetricsRetriedAndAtShutdown) {
  loopback_http_server rx({http_response(503, "Retry-After: 0\r\n"), http_response(200), http_response(200),
                           http_response(200), http_response(200), http_response(200)});
  auto registry = std::make_shared<cafmcp::metrics_registry>();
  auto& calls = registry->counter("calls", "{call}", "calls", {"k"});
  calls.with({"a"}).add(7);
  otlp_http_options o;
  o.endpoint = rx.url("/v1/metrics");
  o.protocol = otlp_protocol::http_json; // read back here; protobuf: OtlpMetricsProtobuf and the strict receiver
  auto exporter = std::make_shared<otlp_http_metric_exporter>(o, resource::with_service("svc"),
                                                              instrumentation_scope{"cafmcp", ""});
  {
    std::shared_ptr<const cafmcp::metric_producer> producer = registry;
    periodic_metric_reader reader([producer] { return to_metric_batch(producer->collect()); }, exporter,
                                  {std::chrono::hours(1), std::chrono::seconds(10)}); // no tick in this test
    EXPECT_TRUE(reader.force_flush());
    calls.with({"a"}).add(1);
  } // the last values go out at shutdown
  auto requests = rx.wait_for(3);
  ASSERT_EQ(requests.size(), 3u); // the 503, its retry, the shutdown export
  EXPECT_EQ(exporter->requests(), 3u);
  for (auto& r : requests) {
    EXPECT_EQ(r.request_line.rfind("POST /v1/metrics ", 0), 0u);
    EXPECT_EQ(r.headers.at("content-type"), "application/json");
  }
  auto point = [](const cafmcp::otel::testing::recorded_request& r) {
    auto m = json::parse(r.body)["resourceMetrics"][0]["scopeMetrics"][0]["metrics"][0];
    EXPECT_EQ(m["name"], "calls");
    EXPECT_EQ(m["sum"]["isMonotonic"], true);
    EXPECT_EQ(m["sum"]["dataPoints"][0]["attributes"][0]["value"]["stringValue"], "a");
    return m["sum"]["dataPoints"][0]["asInt"].get<std::string>();
  };
  EXPECT_EQ(point(requests[1]), "7");
  EXPECT_EQ(point(requests[2]), "8");
}

TEST(MetricsEnvironment, EndpointAndIntervalFromTheStandardVariables) {
  ::setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/", 1);
  EXPECT_EQ(metrics_endpoint_from_environment(), "http://collector:4318/v1/metrics");
  ::setenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://other:1/custom", 1);
  EXPECT_EQ(metrics_endpoint_from_environment(), "http://other:1/custom");
  provider_settings s;
  s.otlp_endpoint = "http://flag:4318";
  EXPECT_EQ(metrics_endpoint_from_environment(s), "http://flag:4318/v1/metrics");
  ::setenv("OTEL_METRIC_EXPORT_INTERVAL", "250", 1);
  EXPECT_EQ(periodic_reader_options_from_environment().interval, std::chrono::milliseconds(250));
  ::setenv("OTEL_METRIC_EXPORT_INTERVAL", "soon", 1);
  EXPECT_EQ(periodic_reader_options_from_environment().interval, std::chrono::milliseconds(60000));
  ::setenv("OTEL_METRICS_EXPORTER", "none", 1);
  EXPECT_EQ(metric_reader_from_environment([] { return metric_batch{}; }), nullptr);
  for (auto* v : {"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
                  "OTEL_METRIC_EXPORT_INTERVAL", "OTEL_METRICS_EXPORTER"})
    ::unsetenv(v);
  EXPECT_EQ(metric_reader_from_environment([] { return metric_batch{}; }), nullptr); // nowhere to send
}

// Configuration from the standard OTEL_* environment variables.
#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cafmcp/otel/environment.hpp"

#include "key_values.hpp"
#include "loopback_http_server.hpp"

namespace cafmcp::otel {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;

// Every test starts from an environment without OTEL_* variables and
// leaves none behind.
struct Environment : ::testing::Test {
  static constexpr const char* names[] = {"OTEL_SDK_DISABLED",           "OTEL_SERVICE_NAME",
                                          "OTEL_RESOURCE_ATTRIBUTES",    "OTEL_TRACES_EXPORTER",
                                          "OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
                                          "OTEL_EXPORTER_OTLP_HEADERS",  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
                                          "OTEL_EXPORTER_OTLP_TIMEOUT",  "OTEL_EXPORTER_OTLP_TRACES_TIMEOUT",
                                          "OTEL_EXPORTER_OTLP_PROTOCOL", "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
                                          "OTEL_TRACES_SAMPLER",         "OTEL_TRACES_SAMPLER_ARG",
                                          "OTEL_BSP_SCHEDULE_DELAY",     "OTEL_BSP_EXPORT_TIMEOUT",
                                          "OTEL_BSP_MAX_QUEUE_SIZE",     "OTEL_BSP_MAX_EXPORT_BATCH_SIZE"};
  void SetUp() override { clear(); }
  void TearDown() override { clear(); }
  static void clear() {
    for (auto* n : names)
      ::unsetenv(n);
  }
  static void set(const char* name, const char* value) { ::setenv(name, value, 1); }
};

std::string attr(const resource& r, const std::string& key) {
  for (auto& [k, v] : r.attributes)
    if (k == key)
      return std::get<std::string>(v);
  return "<absent>";
}

TEST_F(Environment, TracingIsOffWithoutADestinationOrWhenDisabled) {
  EXPECT_EQ(provider_from_environment(), nullptr);
  provider_settings s;
  s.otlp_endpoint = "http://127.0.0.1:1";
  set("OTEL_SDK_DISABLED", "TRUE");
  EXPECT_EQ(provider_from_environment(s), nullptr);
  set("OTEL_SDK_DISABLED", "false");
  EXPECT_NE(provider_from_environment(s), nullptr);
  set("OTEL_TRACES_EXPORTER", "none");
  EXPECT_EQ(provider_from_environment(s), nullptr);
}

TEST_F(Environment, EndpointsGeneralGetsThePathSignalSpecificIsUsedAsIs) {
  set("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/");
  EXPECT_EQ(traces_endpoint_from_environment(), "http://collector:4318/v1/traces");
  set("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/base");
  EXPECT_EQ(traces_endpoint_from_environment(), "http://collector:4318/base/v1/traces");
  set("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "http://other:9999/custom/path");
  EXPECT_EQ(traces_endpoint_from_environment(), "http://other:9999/custom/path");
  provider_settings s;
  s.otlp_endpoint = "http://explicit:4318";
  EXPECT_EQ(traces_endpoint_from_environment(s), "http://explicit:4318/v1/traces");
}

TEST_F(Environment, HeadersAndResourceReachTheReceiver) {
  testing::loopback_http_server rx({testing::http_response(200)});
  set("OTEL_EXPORTER_OTLP_ENDPOINT", rx.url().c_str());
  set("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json"); // read back below
  set("OTEL_EXPORTER_OTLP_HEADERS", "x-api-key=s%20ecret, Authorization=Bearer%20abc%3D%3D,x-over=general");
  set("OTEL_EXPORTER_OTLP_TRACES_HEADERS", "x-over=specific");
  set("OTEL_SERVICE_NAME", "svc-env");
  set("OTEL_RESOURCE_ATTRIBUTES", "deployment.environment=test%2C1,service.name=loses");
  set("OTEL_BSP_SCHEDULE_DELAY", "3600000"); // only the flush below exports
  auto provider = provider_from_environment();
  ASSERT_NE(provider, nullptr);
  provider->get_tracer("env-test").start("op").end();
  ASSERT_TRUE(provider->force_flush(10s));
  auto seen = rx.wait_for(1);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].request_line, "POST /v1/traces HTTP/1.1");
  EXPECT_EQ(seen[0].headers["content-type"], "application/json");
  EXPECT_EQ(seen[0].headers["x-api-key"], "s ecret");
  EXPECT_EQ(seen[0].headers["authorization"], "Bearer abc==");
  EXPECT_EQ(seen[0].headers["x-over"], "specific");
  auto body = json::parse(seen[0].body);
  auto& rs = body["resourceSpans"][0];
  std::map<std::string, std::string> res;
  for (auto& a : rs["resource"]["attributes"])
    res[a["key"]] = a["value"]["stringValue"];
  EXPECT_EQ(res["service.name"], "svc-env"); // OTEL_SERVICE_NAME wins
  EXPECT_EQ(res["deployment.environment"], "test,1");
  EXPECT_EQ(rs["scopeSpans"][0]["scope"]["name"], "env-test");
  EXPECT_EQ(rs["scopeSpans"][0]["spans"][0]["name"], "op");
}

TEST_F(Environment, ResourceAttributesNameTheServiceUnlessMalformed) {
  EXPECT_EQ(attr(resource_from_environment("dflt"), "service.name"), "dflt");
  set("OTEL_RESOURCE_ATTRIBUTES", "service.name=from-attrs,team=core");
  auto r = resource_from_environment("dflt");
  EXPECT_EQ(attr(r, "service.name"), "from-attrs");
  EXPECT_EQ(attr(r, "team"), "core");
  EXPECT_EQ(attr(r, "telemetry.sdk.language"), "cpp");
  set("OTEL_RESOURCE_ATTRIBUTES", "service.name=x,broken,team=core"); // discarded whole
  r = resource_from_environment("dflt");
  EXPECT_EQ(attr(r, "service.name"), "dflt");
  EXPECT_EQ(attr(r, "team"), "<absent>");
}

TEST_F(Environment, SamplerFromItsVariables) {
  EXPECT_EQ(sampler_from_environment()->description(), "ParentBased{root=AlwaysOnSampler}");
  set("OTEL_TRACES_SAMPLER", "traceidratio");
  set("OTEL_TRACES_SAMPLER_ARG", "0");
  EXPECT_EQ(sampler_from_environment()->description(), "TraceIdRatioBased{0.000000}");
  set("OTEL_TRACES_SAMPLER", "parentbased_traceidratio");
  set("OTEL_TRACES_SAMPLER_ARG", "0.5");
  EXPECT_EQ(sampler_from_environment()->description(), "ParentBased{root=TraceIdRatioBased{0.500000}}");
  set("OTEL_TRACES_SAMPLER", "always_off");
  EXPECT_TRUE(sampler_from_environment()->never_samples());
  set("OTEL_TRACES_SAMPLER", "jaeger_remote"); // not supported here: the default
  EXPECT_EQ(sampler_from_environment()->description(), "ParentBased{root=AlwaysOnSampler}");
}

TEST_F(Environment, BatchAndExporterSettings) {
  auto d = batch_options_from_environment();
  EXPECT_EQ(d.max_queue_size, 2048u);
  EXPECT_EQ(d.schedule_delay, 5000ms);
  EXPECT_EQ(d.max_export_batch_size, 512u);
  EXPECT_EQ(d.export_timeout, 30000ms);
  set("OTEL_BSP_SCHEDULE_DELAY", "250");
  set("OTEL_BSP_EXPORT_TIMEOUT", "1500");
  set("OTEL_BSP_MAX_QUEUE_SIZE", "100");
  set("OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "-3"); // invalid: the default stays
  auto b = batch_options_from_environment();
  EXPECT_EQ(b.schedule_delay, 250ms);
  EXPECT_EQ(b.export_timeout, 1500ms);
  EXPECT_EQ(b.max_queue_size, 100u);
  EXPECT_EQ(b.max_export_batch_size, 512u);
  set("OTEL_EXPORTER_OTLP_TIMEOUT", "700");
  EXPECT_EQ(otlp_http_options_from_environment("http://x/v1/traces").timeout, 700ms);
  set("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT", "800");
  EXPECT_EQ(otlp_http_options_from_environment("http://x/v1/traces").timeout, 800ms);
}

TEST_F(Environment, ProtocolIsProtobufUnlessJsonIsAskedFor) {
  auto protocol = [] { return otlp_http_options_from_environment("http://x/v1/traces").protocol; };
  EXPECT_EQ(protocol(), otlp_protocol::http_protobuf); // OTLP's default
  set("OTEL_EXPORTER_OTLP_PROTOCOL", "http/json");
  EXPECT_EQ(protocol(), otlp_protocol::http_json);
  set("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "http/protobuf"); // the signal's own wins
  EXPECT_EQ(protocol(), otlp_protocol::http_protobuf);
  set("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "grpc"); // not spoken here: the general one stays
  EXPECT_EQ(protocol(), otlp_protocol::http_json);
}

TEST_F(Environment, JsonLinesToAFile) {
  auto path = ::testing::TempDir() + "otel-env-test.jsonl";
  std::remove(path.c_str());
  {
    provider_settings s;
    s.jsonl_path = path;
    s.service_name = "explicit";
    set("OTEL_SERVICE_NAME", "loses-to-settings");
    auto provider = provider_from_environment(s);
    ASSERT_NE(provider, nullptr);
    auto t = provider->get_tracer("file");
    t.start("one").end();
    ASSERT_TRUE(provider->force_flush(10s));
    t.start("two").end();
  } // the provider's end flushes "two"
  std::ifstream in(path);
  std::vector<std::string> names;
  std::string line;
  for (int i = 0; i < 10 && std::getline(in, line); ++i) {
    auto j = json::parse(line);
    EXPECT_EQ(j["resourceSpans"][0]["resource"]["attributes"][0]["value"]["stringValue"], "explicit");
    for (auto& s : j["resourceSpans"][0]["scopeSpans"][0]["spans"])
      names.push_back(s["name"]);
  }
  EXPECT_EQ(names, (std::vector<std::string>{"one", "two"}));
  std::remove(path.c_str());
}

TEST_F(Environment, AFileThatCannotBeOpenedIsNamedWithItsCause) {
  provider_settings s;
  s.jsonl_path = "/nonexistent/dir/t.jsonl";
  try {
    provider_from_environment(s);
    FAIL() << "no exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "cannot write traces to /nonexistent/dir/t.jsonl: No such file or directory");
  }
}

TEST(KeyValues, DecodesAndRejects) {
  auto kv = detail::parse_key_values(" a=1 , b = x%2Cy ,,c=");
  ASSERT_TRUE(kv);
  ASSERT_EQ(kv->size(), 3u);
  EXPECT_EQ((*kv)[1], (std::pair<std::string, std::string>{"b", "x,y"}));
  EXPECT_EQ((*kv)[2].second, "");
  EXPECT_FALSE(detail::parse_key_values("novalue"));
  EXPECT_FALSE(detail::parse_key_values("=v"));
  EXPECT_FALSE(detail::parse_key_values("k=%zz"));
  EXPECT_FALSE(detail::parse_key_values("k=%2"));
  EXPECT_TRUE(detail::parse_key_values("")->empty());
}

} // namespace
} // namespace cafmcp::otel

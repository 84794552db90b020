// The metrics registry: series by attributes, exact counts under threads,
// histogram buckets at their bounds, the overflow series past the limit,
// observed values, and the Prometheus text written from a snapshot.
#include <thread>

#include <gtest/gtest.h>

#include "cafmcp/metrics.hpp"
#include "cafmcp/prometheus_text.hpp"

using namespace cafmcp;

namespace {

const metric_family* family(const metrics_snapshot& s, const std::string& name) {
  for (auto& f : s.families)
    if (f.name == name)
      return &f;
  return nullptr;
}

const metric_point* point(const metric_family& f, const metric_attributes& a) {
  for (auto& p : f.points)
    if (p.attributes == a)
      return &p;
  return nullptr;
}

} // namespace

TEST(Metrics, CountersKeepOneSeriesPerAttributeValues) {
  metrics_registry r;
  auto& c = r.counter("cafmcp.notifications.delivered", "{notification}", "d", {"mcp.method.name"});
  c.with({"notifications/resources/updated"}).add(3);
  c.with({"notifications/tools/list_changed"}).add();
  c.with({"notifications/resources/updated"}).add(2);
  EXPECT_EQ(&c.with({"notifications/tools/list_changed"}), &c.with({"notifications/tools/list_changed"}));
  auto s = r.collect();
  auto* f = family(s, "cafmcp.notifications.delivered");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->points.size(), 2u);
  EXPECT_EQ(point(*f, {{"mcp.method.name", "notifications/resources/updated"}})->value, 5);
  EXPECT_EQ(point(*f, {{"mcp.method.name", "notifications/tools/list_changed"}})->value, 1);
  EXPECT_GT(s.time_unix_nano, 0u);
  EXPECT_LE(s.start_unix_nano, s.time_unix_nano);
}

TEST(Metrics, AnEmptyValueLeavesItsAttributeOut) {
  metrics_registry r;
  auto& h = r.histogram("d", "s", "", {1.0}, {"mcp.method.name", "error.type"});
  h.with({"tools/call", ""}).record(0.5);
  h.with({"tools/call", "-32602"}).record(0.5);
  auto s = r.collect();
  auto* f = family(s, "d");
  EXPECT_NE(point(*f, {{"mcp.method.name", "tools/call"}}), nullptr);
  EXPECT_NE(point(*f, {{"mcp.method.name", "tools/call"}, {"error.type", "-32602"}}), nullptr);
}

TEST(Metrics, TheSameNameGivesTheSameFamilyAndAnotherKindIsRefused) {
  metrics_registry r;
  auto& a = r.counter("x", "1", "", {"k"});
  auto& b = r.counter("x", "1", "", {"k"});
  EXPECT_EQ(&a, &b);
  EXPECT_THROW(r.up_down_counter("x", "1", ""), std::invalid_argument);
  EXPECT_THROW(r.counter("x", "1", "", {"other"}), std::invalid_argument);
  EXPECT_THROW(r.histogram("h", "s", "", {1.0, 1.0}), std::invalid_argument);
  EXPECT_THROW(r.histogram("h2", "s", "", {2.0, 1.0}), std::invalid_argument);
}

TEST(Metrics, ConcurrentRecordsAreAllCounted) {
  metrics_registry r;
  auto& c = r.counter("c", "1", "", {"k"});
  auto& g = r.up_down_counter("g", "1", "");
  auto& h = r.histogram("h", "s", "", {0.5, 1.0}, {"k"});
  constexpr int threads = 4, each = 20000;
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t)
    ts.emplace_back([&, t] {
      auto key = std::to_string(t % 2);
      for (int i = 0; i < each; ++i) {
        c.with({key}).add();
        g.with({}).add(1);
        g.with({}).add(-1);
        h.with({key}).record(i % 2 ? 0.25 : 0.75);
      }
    });
  for (auto& t : ts)
    t.join();
  auto s = r.collect();
  std::int64_t total = 0;
  for (auto& p : family(s, "c")->points)
    total += p.value;
  EXPECT_EQ(total, threads * each);
  EXPECT_EQ(family(s, "g")->points.at(0).value, 0);
  std::uint64_t count = 0;
  double sum = 0;
  for (auto& p : family(s, "h")->points) {
    count += p.count;
    sum += p.sum;
    EXPECT_EQ(p.bucket_counts.at(0), p.bucket_counts.at(1)); // half 0.25, half 0.75
    EXPECT_EQ(p.bucket_counts.at(2), 0u);
  }
  EXPECT_EQ(count, std::uint64_t{threads * each});
  EXPECT_DOUBLE_EQ(sum, threads * each * 0.5);
}

TEST(Metrics, AValueOnABoundCountsInThatBucket) {
  metrics_registry r;
  auto& h = r.histogram("h", "s", "", {0.01, 0.1, 1});
  for (double v : {0.0, 0.01, 0.010001, 0.1, 1.0, 1.5, 300.0})
    h.with({}).record(v);
  auto p = family(r.collect(), "h")->points.at(0);
  EXPECT_EQ(p.bucket_counts, (std::vector<std::uint64_t>{2, 2, 1, 2}));
  EXPECT_EQ(p.count, 7u);
}

TEST(Metrics, PastTheSeriesLimitNewValuesShareTheOverflowSeries) {
  metrics_registry r(3);
  auto& c = r.counter("c", "1", "", {"client.chosen"});
  for (int i = 0; i < 10; ++i)
    c.with({std::to_string(i)}).add();
  c.with({"0"}).add(); // an existing series still counts on its own
  auto s = r.collect();
  auto* f = family(s, "c");
  ASSERT_EQ(f->points.size(), 4u); // three series and the overflow
  EXPECT_EQ(point(*f, {{"client.chosen", "0"}})->value, 2);
  EXPECT_EQ(point(*f, {{"otel.metric.overflow", "true"}})->value, 7);
}

TEST(Metrics, ObservedValuesAreReadAtCollectionUntilTheirHandleEnds) {
  metrics_registry r;
  std::int64_t connections = 4;
  auto handle = r.observe("cafmcp.http.connections", "{connection}", "open", metric_kind::up_down_counter,
                          [&](metric_observer& o) { o.observe(connections); });
  auto second = r.observe("cafmcp.http.connections", "{connection}", "open", metric_kind::up_down_counter,
                          [&](metric_observer& o) {
                            o.observe(1, {{"loop", "b"}});
                          });
  auto s = r.collect();
  auto* f = family(s, "cafmcp.http.connections");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(f->points.size(), 2u); // both callbacks, one family
  EXPECT_EQ(f->points[0].value, 4);
  connections = 9;
  EXPECT_EQ(family(r.collect(), "cafmcp.http.connections")->points[0].value, 9);
  handle.reset();
  second = {};
  EXPECT_EQ(family(r.collect(), "cafmcp.http.connections"), nullptr);
  EXPECT_THROW((void)r.observe("h", "s", "", metric_kind::histogram, [](metric_observer&) {}),
               std::invalid_argument);
}

TEST(Metrics, AHandleOutlivingItsRegistryIsHarmless) {
  metric_observation handle;
  {
    metrics_registry r;
    handle = r.observe("g", "1", "", metric_kind::gauge, [](metric_observer& o) { o.observe(1); });
  }
  handle.reset(); // nothing to unregister from any more
}

TEST(PrometheusText, NamesFollowOpenTelemetrysCompatibilityRules) {
  auto name = [](std::string n, std::string unit, metric_kind k) {
    return prometheus_name(metric_family{std::move(n), std::move(unit), "", k, {}, {}});
  };
  EXPECT_EQ(name("mcp.server.operation.duration", "s", metric_kind::histogram),
            "mcp_server_operation_duration_seconds");
  EXPECT_EQ(name("cafmcp.notifications.delivered", "{notification}", metric_kind::counter),
            "cafmcp_notifications_delivered_total");
  EXPECT_EQ(name("cafmcp.sessions", "{session}", metric_kind::up_down_counter), "cafmcp_sessions");
  EXPECT_EQ(name("cafmcp.http.outbound.queued", "By", metric_kind::gauge),
            "cafmcp_http_outbound_queued_bytes");
  EXPECT_EQ(name("already_seconds", "s", metric_kind::gauge), "already_seconds");
  EXPECT_EQ(name("a-b..c", "", metric_kind::gauge), "a_b_c");
  EXPECT_EQ(name("1st", "", metric_kind::gauge), "_1st");
}

TEST(PrometheusText, HistogramsAreCumulativeWithSumAndCount) {
  metrics_registry r;
  auto& h = r.histogram("mcp.server.operation.duration", "s", "MCP request duration", {0.01, 0.1},
                        {"mcp.method.name", "error.type"});
  h.with({"tools/call", ""}).record(0.005);
  h.with({"tools/call", ""}).record(0.05);
  h.with({"tools/call", ""}).record(2);
  auto text = prometheus_text(r.collect());
  EXPECT_EQ(text,
            "# HELP mcp_server_operation_duration_seconds MCP request duration\n"
            "# TYPE mcp_server_operation_duration_seconds histogram\n"
            "mcp_server_operation_duration_seconds_bucket{mcp_method_name=\"tools/call\",le=\"0.01\"} 1\n"
            "mcp_server_operation_duration_seconds_bucket{mcp_method_name=\"tools/call\",le=\"0.1\"} 2\n"
            "mcp_server_operation_duration_seconds_bucket{mcp_method_name=\"tools/call\",le=\"+Inf\"} 3\n"
            "mcp_server_operation_duration_seconds_sum{mcp_method_name=\"tools/call\"} 2.055\n"
            "mcp_server_operation_duration_seconds_count{mcp_method_name=\"tools/call\"} 3\n");
}

TEST(PrometheusText, CountersGaugesAndEscaping) {
  metrics_registry r;
  r.counter("cafmcp.supervisor.restarts", "{restart}", "Restarts\\of a child\nactor", {"cafmcp.actor"})
    .with({"server"})
    .add(2);
  r.up_down_counter("cafmcp.sessions", "{session}", "Sessions").with({}).set(-1);
  r.counter("odd", "1", "", {"v"}).with({"a\"b\\c\nd"}).add();
  r.counter("unused", "1", ""); // no series yet: not written
  auto text = prometheus_text(r.collect());
  EXPECT_EQ(text, "# HELP cafmcp_supervisor_restarts_total Restarts\\\\of a child\\nactor\n"
                  "# TYPE cafmcp_supervisor_restarts_total counter\n"
                  "cafmcp_supervisor_restarts_total{cafmcp_actor=\"server\"} 2\n"
                  "# HELP cafmcp_sessions Sessions\n"
                  "# TYPE cafmcp_sessions gauge\n"
                  "cafmcp_sessions -1\n"
                  "# HELP odd_total \n"
                  "# TYPE odd_total counter\n"
                  "odd_total{v=\"a\\\"b\\\\c\\nd\"} 1\n");
}

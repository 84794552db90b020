#include "cafmcp/otel/otlp_metrics_json.hpp"

#include <cmath>

#include <nlohmann/json.hpp>

namespace cafmcp::otel {
namespace {

using json = nlohmann::json;

// A few dozen points per export at most: nlohmann objects are simple and
// cheap enough here (spans, a million a second, are written as text).
json value_of(const attribute_value& v) {
  return std::visit(
    [](const auto& x) -> json {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, std::string>)
        return {{"stringValue", x}};
      else if constexpr (std::is_same_v<T, std::int64_t>)
        return {{"intValue", std::to_string(x)}};
      else if constexpr (std::is_same_v<T, double>)
        return {{"doubleValue", x}};
      else
        return {{"boolValue", x}};
    },
    v);
}

json attributes_of(const attributes& attrs) {
  json out = json::array();
  for (auto& [k, v] : attrs)
    out.push_back({{"key", k}, {"value", value_of(v)}});
  return out;
}

// Proto3's JSON mapping: non-finite doubles as strings.
json double_of(double x) {
  if (std::isnan(x))
    return "NaN";
  if (std::isinf(x))
    return x > 0 ? "Infinity" : "-Infinity";
  return x;
}

json point_of(const metric_data& m, const metric_point_data& p, const metric_batch& b) {
  json out = {{"attributes", attributes_of(p.attributes)},
              {"timeUnixNano", std::to_string(b.time_unix_nano)}};
  if (m.type != metric_type::gauge) // a gauge's value has no start
    out["startTimeUnixNano"] = std::to_string(b.start_unix_nano);
  if (m.type != metric_type::histogram) {
    out["asInt"] = std::to_string(p.value);
    return out;
  }
  out["count"] = std::to_string(p.count);
  out["sum"] = double_of(p.sum);
  json counts = json::array();
  for (auto c : p.bucket_counts)
    counts.push_back(std::to_string(c));
  out["bucketCounts"] = std::move(counts);
  json bounds = json::array();
  for (auto b : m.bounds)
    bounds.push_back(double_of(b));
  out["explicitBounds"] = std::move(bounds);
  return out;
}

constexpr int cumulative = 2; // AggregationTemporality

} // namespace

std::string encode_otlp_metrics_json(const resource& res, const instrumentation_scope& scope,
                                     const metric_batch& batch) {
  json metrics = json::array();
  for (auto& m : batch.metrics) {
    if (m.points.empty())
      continue;
    json points = json::array();
    for (auto& p : m.points)
      points.push_back(point_of(m, p, batch));
    json metric = {{"name", m.name}, {"description", m.description}, {"unit", m.unit}};
    switch (m.type) {
      case metric_type::sum:
        metric["sum"] = {{"dataPoints", std::move(points)},
                         {"aggregationTemporality", cumulative},
                         {"isMonotonic", m.monotonic}};
        break;
      case metric_type::gauge: metric["gauge"] = {{"dataPoints", std::move(points)}}; break;
      case metric_type::histogram:
        metric["histogram"] = {{"dataPoints", std::move(points)}, {"aggregationTemporality", cumulative}};
        break;
    }
    metrics.push_back(std::move(metric));
  }
  json scope_json = {{"name", scope.name}};
  if (!scope.version.empty())
    scope_json["version"] = scope.version;
  json body = {
    {"resourceMetrics",
     json::array({{{"resource", {{"attributes", attributes_of(res.attributes)}}},
                   {"scopeMetrics", json::array({{{"scope", scope_json}, {"metrics", metrics}}})}}})}};
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace cafmcp::otel

#include "cafmcp/otel/otlp_metrics_protobuf.hpp"

#include "protobuf_writer.hpp"

namespace cafmcp::otel {
namespace {

using namespace detail::protobuf;

// Field numbers of opentelemetry-proto v1 (metrics/v1/metrics.proto).
namespace request {
constexpr int resource_metrics = 1;
}
namespace resource_metrics {
constexpr int resource = 1, scope_metrics = 2;
}
namespace scope_metrics {
constexpr int scope = 1, metrics = 2;
}
namespace metric {
constexpr int name = 1, description = 2, unit = 3, gauge = 5, sum = 7, histogram = 9;
}
namespace data { // Gauge, Sum and Histogram share these
constexpr int data_points = 1, aggregation_temporality = 2, is_monotonic = 3;
}
namespace number_point {
constexpr int start_time = 2, time = 3, as_int = 6, attributes = 7;
}
namespace histogram_point {
constexpr int start_time = 2, time = 3, count = 4, sum = 5, bucket_counts = 6, explicit_bounds = 7,
              attributes = 9;
}

constexpr std::uint64_t cumulative = 2; // AggregationTemporality

void put_varint_field(std::string& out, int field, std::uint64_t v) {
  put_tag(out, field, varint);
  put_varint(out, v);
}

void put_number_point(std::string& out, const metric_data& m, const metric_point_data& p, const metric_batch& b) {
  nested point(out, data::data_points);
  if (m.type != metric_type::gauge) // a gauge's value has no start
    put_fixed64(out, number_point::start_time, b.start_unix_nano);
  put_fixed64(out, number_point::time, b.time_unix_nano);
  put_fixed64(out, number_point::as_int, static_cast<std::uint64_t>(p.value)); // sfixed64
  put_attributes(out, number_point::attributes, p.attributes);
}

void put_histogram_point(std::string& out, const metric_data& m, const metric_point_data& p,
                         const metric_batch& b) {
  nested point(out, data::data_points);
  put_fixed64(out, histogram_point::start_time, b.start_unix_nano);
  put_fixed64(out, histogram_point::time, b.time_unix_nano);
  put_fixed64(out, histogram_point::count, p.count);
  put_double(out, histogram_point::sum, p.sum);
  // Repeated scalars are packed (proto3): one length, then the values
  // (a histogram has at least one bucket; bounds may be none).
  put_tag(out, histogram_point::bucket_counts, length);
  put_varint(out, p.bucket_counts.size() * 8);
  for (auto c : p.bucket_counts)
    for (int i = 0; i < 8; ++i)
      out.push_back(static_cast<char>(c >> (8 * i)));
  if (!m.bounds.empty()) {
    put_tag(out, histogram_point::explicit_bounds, length);
    put_varint(out, m.bounds.size() * 8);
    for (auto bound : m.bounds) {
      std::uint64_t bits;
      std::memcpy(&bits, &bound, sizeof bits);
      for (int i = 0; i < 8; ++i)
        out.push_back(static_cast<char>(bits >> (8 * i)));
    }
  }
  put_attributes(out, histogram_point::attributes, p.attributes);
}

void put_metric(std::string& out, const metric_data& m, const metric_batch& b) {
  nested msg(out, scope_metrics::metrics);
  put_string(out, metric::name, m.name);
  if (!m.description.empty())
    put_string(out, metric::description, m.description);
  if (!m.unit.empty())
    put_string(out, metric::unit, m.unit);
  switch (m.type) {
    case metric_type::gauge: {
      nested gauge(out, metric::gauge);
      for (auto& p : m.points)
        put_number_point(out, m, p, b);
      break;
    }
    case metric_type::sum: {
      nested sum(out, metric::sum);
      for (auto& p : m.points)
        put_number_point(out, m, p, b);
      put_varint_field(out, data::aggregation_temporality, cumulative);
      if (m.monotonic) // false is proto3's default: left out
        put_varint_field(out, data::is_monotonic, 1);
      break;
    }
    case metric_type::histogram: {
      nested histogram(out, metric::histogram);
      for (auto& p : m.points)
        put_histogram_point(out, m, p, b);
      put_varint_field(out, data::aggregation_temporality, cumulative);
      break;
    }
  }
}

} // namespace

// A few dozen points per export: each message's length is inserted once it
// is written (`nested`), which costs nothing that matters at this size.
std::string encode_otlp_metrics_protobuf(const resource& res, const instrumentation_scope& scope,
                                         const metric_batch& batch) {
  std::string out;
  {
    nested rm(out, request::resource_metrics);
    {
      nested r(out, resource_metrics::resource);
      put_attributes(out, resource_msg::attributes, res.attributes);
    }
    nested sm(out, resource_metrics::scope_metrics);
    {
      nested sc(out, scope_metrics::scope);
      put_string(out, scope_msg::name, scope.name);
      if (!scope.version.empty())
        put_string(out, scope_msg::version, scope.version);
    }
    for (auto& m : batch.metrics)
      if (!m.points.empty())
        put_metric(out, m, batch);
  }
  return out;
}

} // namespace cafmcp::otel

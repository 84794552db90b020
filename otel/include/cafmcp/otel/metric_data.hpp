#pragma once
// Metrics as an exporter sees them: cumulative sums, gauges and
// explicit-bucket histograms, each with its points (one per attribute set),
// as OTLP's metrics data model has them. The library measures nothing
// itself: a program (cafmcp's server, through mcp_metrics.hpp) collects
// these from its own instruments.
#include <cstdint>
#include <string>
#include <vector>

#include "cafmcp/otel/span_data.hpp" // attributes

namespace cafmcp::otel {

enum class metric_type { sum, gauge, histogram };

struct metric_point_data {
  otel::attributes attributes;
  std::int64_t value = 0; // sums and gauges
  // Histograms: bucket_counts has bounds.size() + 1 entries, not
  // cumulative; count is their total.
  std::vector<std::uint64_t> bucket_counts;
  std::uint64_t count = 0;
  double sum = 0;
};

struct metric_data {
  std::string name;
  std::string description;
  std::string unit;
  metric_type type = metric_type::sum;
  bool monotonic = false;     // sums: a counter (true) or an up-down counter
  std::vector<double> bounds; // histograms
  std::vector<metric_point_data> points;
};

/// One collection: cumulative values since `start_unix_nano`.
struct metric_batch {
  std::uint64_t start_unix_nano = 0;
  std::uint64_t time_unix_nano = 0;
  std::vector<metric_data> metrics;
};

} // namespace cafmcp::otel

#pragma once
// OTLP's JSON encoding of an ExportMetricsServiceRequest.
#include <string>

#include "cafmcp/otel/metric_data.hpp"
#include "cafmcp/otel/resource.hpp"

namespace cafmcp::otel {

/// One resourceMetrics with one scopeMetrics named `scope`. Sums and
/// histograms are cumulative (aggregationTemporality 2); 64-bit integers
/// (times, counts, asInt) are decimal strings; metrics without points are
/// left out.
std::string encode_otlp_metrics_json(const resource& res, const instrumentation_scope& scope,
                                     const metric_batch& batch);

} // namespace cafmcp::otel

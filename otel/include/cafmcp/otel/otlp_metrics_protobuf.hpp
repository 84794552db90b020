#pragma once
// OTLP's binary protobuf encoding of an ExportMetricsServiceRequest, the
// same content as encode_otlp_metrics_json (OTLP/HTTP's default encoding).
#include <string>

#include "cafmcp/otel/metric_data.hpp"
#include "cafmcp/otel/resource.hpp"

namespace cafmcp::otel {

/// One ResourceMetrics with one ScopeMetrics named `scope`. Sums and
/// histograms are cumulative; metrics without points are left out.
std::string encode_otlp_metrics_protobuf(const resource& res, const instrumentation_scope& scope,
                                         const metric_batch& batch);

} // namespace cafmcp::otel

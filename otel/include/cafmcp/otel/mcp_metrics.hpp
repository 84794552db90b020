#pragma once
// cafmcp's metrics (server_options::metrics) exported over OTLP/HTTP: the
// adapter between the core's registry and this library's periodic reader
// (target cafmcp_otel_mcp; it reads the registry through a virtual call
// and needs no link to the core).
#include <memory>

#include <cafmcp/metrics.hpp>

#include "cafmcp/otel/environment.hpp"
#include "cafmcp/otel/metric_exporter.hpp"

namespace cafmcp::otel {

/// The same values in OTLP's model: counters become monotonic sums,
/// up-down counters non-monotonic sums, gauges gauges, histograms
/// explicit-bucket histograms.
metric_batch to_metric_batch(const cafmcp::metrics_snapshot& snapshot);

/// Collects `metrics` every OTEL_METRIC_EXPORT_INTERVAL ms (60000) and
/// posts them to {endpoint}/v1/metrics (metric_reader_from_environment: the
/// same endpoint, headers and resource as traces). nullptr when `metrics`
/// is null or nothing is configured. Keep it while the server runs; its
/// destructor exports the last values.
std::unique_ptr<periodic_metric_reader>
export_mcp_metrics(std::shared_ptr<const cafmcp::metric_producer> metrics, const provider_settings& s = {});

} // namespace cafmcp::otel

#pragma once
// Prometheus's text exposition format (0.0.4) of a metrics snapshot, with
// OpenTelemetry's names carried over as its Prometheus compatibility spec
// says: dots (and any other character a Prometheus name cannot hold) become
// underscores, the unit is a suffix (`s` -> `_seconds`, `By` -> `_bytes`;
// annotations in braces are dropped), and counters end in `_total`.
#include <string>
#include <string_view>

#include "cafmcp/metrics.hpp"

namespace cafmcp {

/// The Content-Type of prometheus_text().
inline constexpr std::string_view prometheus_content_type = "text/plain; version=0.0.4; charset=utf-8";

/// `mcp.server.operation.duration`, "s", histogram ->
/// `mcp_server_operation_duration_seconds`.
std::string prometheus_name(const metric_family& f);

/// Every family with at least one point: `# HELP`, `# TYPE`, then its
/// samples (histograms as cumulative `_bucket{le=...}`, `_sum`, `_count`).
std::string prometheus_text(const metrics_snapshot& snapshot);

} // namespace cafmcp

#include "cafmcp/otel/mcp_metrics.hpp"

namespace cafmcp::otel {

metric_batch to_metric_batch(const cafmcp::metrics_snapshot& snapshot) {
  metric_batch b;
  b.start_unix_nano = snapshot.start_unix_nano;
  b.time_unix_nano = snapshot.time_unix_nano;
  for (auto& f : snapshot.families) {
    metric_data m;
    m.name = f.name;
    m.description = f.description;
    m.unit = f.unit;
    switch (f.kind) {
      case cafmcp::metric_kind::counter:
        m.type = metric_type::sum;
        m.monotonic = true;
        break;
      case cafmcp::metric_kind::up_down_counter: m.type = metric_type::sum; break;
      case cafmcp::metric_kind::gauge: m.type = metric_type::gauge; break;
      case cafmcp::metric_kind::histogram: m.type = metric_type::histogram; break;
    }
    m.bounds = f.bounds;
    for (auto& p : f.points) {
      metric_point_data d;
      for (auto& [k, v] : p.attributes)
        d.attributes.emplace_back(k, v);
      d.value = p.value;
      d.bucket_counts = p.bucket_counts;
      d.count = p.count;
      d.sum = p.sum;
      m.points.push_back(std::move(d));
    }
    b.metrics.push_back(std::move(m));
  }
  return b;
}

std::unique_ptr<periodic_metric_reader>
export_mcp_metrics(std::shared_ptr<const cafmcp::metric_producer> metrics, const provider_settings& s) {
  if (!metrics)
    return nullptr;
  return metric_reader_from_environment([metrics] { return to_metric_batch(metrics->collect()); }, s);
}

} // namespace cafmcp::otel

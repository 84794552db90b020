#include "cafmcp/otel/exporter.hpp"

namespace cafmcp::otel {

void simple_span_processor::on_end(std::unique_ptr<span_data> span) {
  std::lock_guard<std::mutex> g(mtx_); // exporters see one call at a time
  if (!stopped_)
    exporter_->export_spans({std::move(*span)});
}

void simple_span_processor::on_end(std::unique_ptr<span_group> group) {
  std::lock_guard<std::mutex> g(mtx_);
  if (!stopped_)
    exporter_->export_spans(group->expand());
}

bool simple_span_processor::shutdown(std::chrono::milliseconds) {
  std::lock_guard<std::mutex> g(mtx_);
  if (!stopped_) {
    stopped_ = true;
    exporter_->shutdown();
  }
  return true;
}

} // namespace cafmcp::otel

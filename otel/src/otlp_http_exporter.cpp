#include "cafmcp/otel/otlp_http_exporter.hpp"

#include <algorithm>

#include "cafmcp/otel/otlp_json.hpp"
#include "cafmcp/otel/otlp_protobuf.hpp"

#include "http_fetch/http_fetch.hpp"
#include "otlp_sender.hpp"
#include "partial_success.hpp"

namespace cafmcp::otel {
namespace {

// partialSuccess is a success the exporter must not retry, only report.
std::size_t rejected_in(const std::string& body, otlp_protocol protocol) {
  return detail::report_partial_success(detail::partial_success_in(body, protocol), "spans");
}

} // namespace

bool is_supported_endpoint(const std::string& url) { return fetch::parse_http_url(url).has_value(); }

otlp_http_exporter::otlp_http_exporter(otlp_http_options opts, resource res, std::string scope)
  : resource_(std::move(res)), scope_(std::move(scope)),
    sender_(std::make_unique<detail::otlp_sender>(std::move(opts))) {}

otlp_http_exporter::~otlp_http_exporter() = default;

std::size_t otlp_http_exporter::requests() const { return sender_->requests(); }

bool otlp_http_exporter::export_spans(const std::vector<span_data>& spans) {
  return export_until(spans, deadline::max());
}

bool otlp_http_exporter::export_until(const std::vector<span_data>& spans, deadline until) {
  if (spans.empty())
    return true;
  if (sender_->options().protocol == otlp_protocol::http_protobuf)
    return post(encode_otlp_protobuf(resource_, scope_, spans), spans.size(), until);
  return post(encode_otlp_json(resource_, scope_, spans), spans.size(), until);
}

bool otlp_http_exporter::export_batch(span_batch& batch, deadline until) {
  if (batch.empty())
    return true;
  if (sender_->options().protocol == otlp_protocol::http_protobuf)
    encode_otlp_protobuf(buffer_, resource_, scope_, batch);
  else
    encode_otlp_json(buffer_, resource_, scope_, batch);
  return post(buffer_, batch.size(), until);
}

bool otlp_http_exporter::post(const std::string& body, std::size_t spans, deadline until) {
  auto protocol = sender_->options().protocol;
  const char* content_type =
    protocol == otlp_protocol::http_protobuf ? "application/x-protobuf" : "application/json";
  auto reply = sender_->post(body, content_type, std::to_string(spans) + " spans", until);
  if (!reply)
    return false;
  rejected_ += rejected_in(*reply, protocol);
  return true;
}

void otlp_http_exporter::shutdown() { sender_->shutdown(); }

} // namespace cafmcp::otel

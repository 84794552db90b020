#include "cafmcp/otel/metric_exporter.hpp"

#include <cstdio>
#include <cstdlib>

#include <nlohmann/json.hpp>

#include "cafmcp/otel/otlp_metrics_json.hpp"
#include "cafmcp/otel/otlp_metrics_protobuf.hpp"

#include "environment_variables.hpp"
#include "otlp_sender.hpp"
#include "partial_success.hpp"

namespace cafmcp::otel {
using detail::env;
using detail::ms_from_env;
namespace {

std::size_t points_in(const metric_batch& b) {
  std::size_t n = 0;
  for (auto& m : b.metrics)
    n += m.points.size();
  return n;
}

} // namespace

otlp_http_metric_exporter::otlp_http_metric_exporter(otlp_http_options opts, resource res,
                                                     instrumentation_scope scope)
  : resource_(std::move(res)), scope_(std::move(scope)), protocol_(opts.protocol),
    sender_(std::make_unique<detail::otlp_sender>(std::move(opts))) {}

otlp_http_metric_exporter::~otlp_http_metric_exporter() = default;

std::size_t otlp_http_metric_exporter::requests() const { return sender_->requests(); }

bool otlp_http_metric_exporter::export_metrics(const metric_batch& batch, deadline until) {
  bool binary = protocol_ == otlp_protocol::http_protobuf;
  auto reply = sender_->post(binary ? encode_otlp_metrics_protobuf(resource_, scope_, batch)
                                    : encode_otlp_metrics_json(resource_, scope_, batch),
                             binary ? "application/x-protobuf" : "application/json",
                             std::to_string(points_in(batch)) + " data points", until);
  if (!reply)
    return false;
  // partialSuccess: reported, never retried.
  rejected_ += detail::report_partial_success(detail::partial_success_in(*reply, protocol_, "rejectedDataPoints"),
                                              "data points");
  return true;
}

void otlp_http_metric_exporter::shutdown() { sender_->shutdown(); }

periodic_metric_reader::periodic_metric_reader(std::function<metric_batch()> collect,
                                               std::shared_ptr<otlp_http_metric_exporter> exporter,
                                               periodic_reader_options options)
  : collect_(std::move(collect)), exporter_(std::move(exporter)), options_(options) {
  thread_ = std::thread([this] { run(); });
}

periodic_metric_reader::~periodic_metric_reader() {
  {
    std::lock_guard<std::mutex> g(mtx_);
    stopping_ = true;
  }
  cv_.notify_all();
  thread_.join();
  force_flush(); // the values since the last export
  exporter_->shutdown();
}

bool periodic_metric_reader::force_flush() {
  std::lock_guard<std::mutex> g(export_mtx_);
  auto batch = collect_();
  bool ok = exporter_->export_metrics(batch, std::chrono::steady_clock::now() + options_.timeout);
  if (ok)
    ++exports_;
  return ok;
}

void periodic_metric_reader::run() {
  std::unique_lock<std::mutex> lock(mtx_);
  for (;;) {
    if (cv_.wait_for(lock, options_.interval, [this] { return stopping_; }))
      return;
    lock.unlock();
    force_flush();
    lock.lock();
  }
}

std::optional<std::string> metrics_endpoint_from_environment(const provider_settings& s) {
  return detail::signal_endpoint(s.otlp_endpoint, "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "/v1/metrics");
}

periodic_reader_options periodic_reader_options_from_environment() {
  periodic_reader_options o;
  ms_from_env("OTEL_METRIC_EXPORT_INTERVAL", o.interval);
  ms_from_env("OTEL_METRIC_EXPORT_TIMEOUT", o.timeout);
  return o;
}

std::unique_ptr<periodic_metric_reader> metric_reader_from_environment(std::function<metric_batch()> collect,
                                                                       const provider_settings& s) {
  auto disabled = env("OTEL_SDK_DISABLED");
  if (disabled && *disabled == "true")
    return nullptr;
  auto kind = env("OTEL_METRICS_EXPORTER").value_or("otlp");
  if (kind == "none")
    return nullptr;
  if (kind != "otlp")
    std::fprintf(stderr, "cafmcp-otel: OTEL_METRICS_EXPORTER=%s is not supported (otlp, none); using otlp\n",
                 kind.c_str());
  auto endpoint = metrics_endpoint_from_environment(s);
  if (!endpoint)
    return nullptr;
  auto opts = otlp_http_options_from_environment(*endpoint, "METRICS");
  resource res = resource_from_environment(s.default_service);
  if (s.service_name)
    std::get<std::string>(res.attributes[0].second) = *s.service_name;
  auto exporter = std::make_shared<otlp_http_metric_exporter>(std::move(opts), std::move(res),
                                                              instrumentation_scope{s.scope, {}});
  return std::make_unique<periodic_metric_reader>(std::move(collect), std::move(exporter),
                                                  periodic_reader_options_from_environment());
}

} // namespace cafmcp::otel

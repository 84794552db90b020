#pragma once
// OTLP/HTTP metrics: an exporter posting ExportMetricsServiceRequests to
// {endpoint}/v1/metrics through the same retrying machinery as the span
// exporter, and the periodic reader that collects and exports on a
// schedule (OTEL_METRIC_EXPORT_INTERVAL), as the SDK's
// PeriodicExportingMetricReader does. Encoded as the protocol option says:
// binary protobuf (OTLP/HTTP's default) or JSON.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "cafmcp/otel/environment.hpp"
#include "cafmcp/otel/metric_data.hpp"
#include "cafmcp/otel/otlp_http_exporter.hpp"

namespace cafmcp::otel {

namespace detail {
class otlp_sender;
}

class otlp_http_metric_exporter {
public:
  /// `opts.endpoint`: the full URL, already ending in /v1/metrics.
  otlp_http_metric_exporter(otlp_http_options opts, resource res, instrumentation_scope scope);
  ~otlp_http_metric_exporter();
  bool export_metrics(const metric_batch& batch, deadline until);
  void shutdown();
  std::size_t requests() const;
  /// Data points the receiver reported as rejected (partialSuccess).
  std::size_t rejected() const { return rejected_; }

private:
  resource resource_;
  instrumentation_scope scope_;
  otlp_protocol protocol_;
  std::unique_ptr<detail::otlp_sender> sender_;
  std::atomic<std::size_t> rejected_{0};
};

struct periodic_reader_options {
  std::chrono::milliseconds interval{60000}; // OTEL_METRIC_EXPORT_INTERVAL
  std::chrono::milliseconds timeout{30000};  // OTEL_METRIC_EXPORT_TIMEOUT
};

/// A thread that calls `collect` every interval and exports what it
/// returns; destroying it exports once more (the last values), then stops.
class periodic_metric_reader {
public:
  periodic_metric_reader(std::function<metric_batch()> collect,
                         std::shared_ptr<otlp_http_metric_exporter> exporter,
                         periodic_reader_options options);
  ~periodic_metric_reader();
  periodic_metric_reader(const periodic_metric_reader&) = delete;
  periodic_metric_reader& operator=(const periodic_metric_reader&) = delete;

  /// Collects and exports now, on the caller's thread; true when exported.
  bool force_flush();
  /// Exports that reached the receiver.
  std::size_t exports() const { return exports_; }

private:
  void run();
  std::function<metric_batch()> collect_;
  std::shared_ptr<otlp_http_metric_exporter> exporter_;
  periodic_reader_options options_;
  std::atomic<std::size_t> exports_{0};
  std::mutex export_mtx_; // one export at a time (the thread, a flush)
  std::mutex mtx_;
  std::condition_variable cv_;
  bool stopping_ = false;
  std::thread thread_;
};

/// OTEL_EXPORTER_OTLP_METRICS_ENDPOINT (used as is), else the base URL of
/// `s` or OTEL_EXPORTER_OTLP_ENDPOINT with /v1/metrics appended.
std::optional<std::string> metrics_endpoint_from_environment(const provider_settings& s = {});
periodic_reader_options periodic_reader_options_from_environment();

/// The reader a program gets from the standard configuration: nullptr when
/// OTEL_SDK_DISABLED=true, OTEL_METRICS_EXPORTER=none, or no endpoint (so
/// an unconfigured program exports nothing and pays nothing). Headers,
/// timeout and CA file as for traces (OTEL_EXPORTER_OTLP_[METRICS_]*); the
/// resource as for traces.
std::unique_ptr<periodic_metric_reader> metric_reader_from_environment(std::function<metric_batch()> collect,
                                                                       const provider_settings& s = {});

} // namespace cafmcp::otel

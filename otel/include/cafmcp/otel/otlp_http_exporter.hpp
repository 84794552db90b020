#pragma once
// The OTLP/HTTP exporter, binary protobuf (OTLP's default) or JSON: POST
// {endpoint}, where the endpoint already ends in /v1/traces
// (environment.hpp appends it to OTEL_EXPORTER_OTLP_ENDPOINT).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "cafmcp/otel/exporter.hpp"

namespace cafmcp::otel {

namespace detail {
class otlp_sender;
}

/// OTEL_EXPORTER_OTLP_PROTOCOL's http/protobuf and http/json.
enum class otlp_protocol { http_protobuf, http_json };

struct otlp_http_options {
  otlp_protocol protocol =
    otlp_protocol::http_protobuf; // OTLP/HTTP's default, for spans and metrics alike
  /// The full URL: http://, or https:// (the receiver's certificate is
  /// verified, with its host name, against the system's CA store or
  /// certificate_file).
  std::string endpoint = "http://localhost:4318/v1/traces";
  /// https: a PEM file of CA certificates to trust instead of the system
  /// store (OTEL_EXPORTER_OTLP_CERTIFICATE).
  std::optional<std::string> certificate_file;
  std::map<std::string, std::string> headers;
  /// The whole export, retries and their waits included
  /// (OTEL_EXPORTER_OTLP_TIMEOUT).
  std::chrono::milliseconds timeout{10000};
  int max_attempts = 5;                           // 429/502/503/504 and unreachable receivers are retried
  std::chrono::milliseconds initial_backoff{100}; // doubled per retry, with jitter
  std::chrono::milliseconds max_backoff{5000};
};

/// Whether an exporter can post to `url`: plain http://HOST[:PORT][/PATH]
/// (IPv6 hosts in brackets). Any other endpoint fails every export, so a
/// program can refuse it at start-up instead.
bool is_supported_endpoint(const std::string& url);

class otlp_http_exporter : public span_exporter {
public:
  otlp_http_exporter(otlp_http_options opts, resource res, std::string scope);
  ~otlp_http_exporter() override;
  bool export_spans(const std::vector<span_data>& spans) override;
  /// Gives up at the earlier of `until` and the options' timeout; a
  /// Retry-After that points past it ends the export at once.
  bool export_until(const std::vector<span_data>& spans, deadline until) override;
  /// Groups encoded without expanding them first.
  bool export_batch(span_batch& batch, deadline until) override;
  /// Ends any backoff wait; exports fail from now on.
  void shutdown() override;

  /// Spans the receiver reported as rejected (partialSuccess), in total.
  std::size_t rejected() const { return rejected_; }
  /// HTTP requests sent, retries included.
  std::size_t requests() const;

private:
  bool post(const std::string& body, std::size_t spans, deadline until);
  resource resource_;
  std::string scope_;
  std::string buffer_; // reused from batch to batch (one processor thread)
  std::unique_ptr<detail::otlp_sender> sender_;
  std::atomic<std::size_t> rejected_{0};
};

} // namespace cafmcp::otel

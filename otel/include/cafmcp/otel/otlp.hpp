#pragma once
// OTLP/JSON encoding and the OTLP/HTTP exporter (POST {endpoint}/v1/traces).
#include <chrono>
#include <map>
#include <string>
#include <vector>

#include "cafmcp/otel/exporter.hpp"

namespace cafmcp::otel {

/// One ExportTraceServiceRequest in OTLP's JSON mapping: hex ids, integer
/// enums, 64-bit integers as decimal strings, lowerCamelCase keys.
std::string encode_otlp_json(const resource& res, const std::string& scope,
                             const std::vector<span_data>& spans);

struct otlp_http_options {
  std::string endpoint = "http://localhost:4318/v1/traces"; // full URL, plain http
  std::map<std::string, std::string> headers;
  std::chrono::milliseconds timeout{10000};
  int max_attempts = 5; // 429/502/503/504 are retried, honouring Retry-After
  std::chrono::milliseconds initial_backoff{100};
};

class otlp_http_exporter : public span_exporter {
public:
  otlp_http_exporter(otlp_http_options opts, resource res, std::string scope);
  bool export_spans(const std::vector<span_data>& spans) override;
  /// Spans the receiver reported as rejected (partialSuccess), in total.
  std::size_t rejected() const { return rejected_; }

private:
  otlp_http_options opts_;
  resource resource_;
  std::string scope_;
  std::size_t rejected_ = 0;
};

/// One OTLP/JSON request per line, to a file or stdout ("-"): for debugging,
/// and loadable in Jaeger's UI without a collector.
class json_lines_exporter : public span_exporter {
public:
  json_lines_exporter(std::string path, resource res, std::string scope);
  ~json_lines_exporter() override;
  bool export_spans(const std::vector<span_data>& spans) override;

private:
  std::FILE* out_;
  bool owned_;
  resource resource_;
  std::string scope_;
};

} // namespace cafmcp::otel

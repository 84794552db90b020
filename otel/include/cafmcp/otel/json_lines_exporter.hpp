#pragma once
// One OTLP/JSON request per line, to a file or stdout: for debugging, and
// loadable in Jaeger's UI (>= 1.55) without a collector.
#include <cstdio>
#include <string>

#include "cafmcp/otel/exporter.hpp"

namespace cafmcp::otel {

class json_lines_exporter : public span_exporter {
public:
  /// "-": stdout (never with the MCP stdio transport: it owns stdout).
  /// Files are appended to. Throws std::runtime_error naming the file
  /// and the cause ("cannot write traces to PATH: No such file or
  /// directory") when it cannot be opened.
  json_lines_exporter(std::string path, resource res, std::string scope);
  ~json_lines_exporter() override;
  bool export_spans(const std::vector<span_data>& spans) override;
  /// Groups encoded without expanding them first.
  bool export_batch(span_batch& batch, deadline until) override;

private:
  bool write_line(const std::string& line);
  std::FILE* out_;
  bool owned_;
  resource resource_;
  std::string scope_;
  std::string buffer_; // reused from batch to batch (one processor thread)
};

} // namespace cafmcp::otel

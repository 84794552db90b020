#include "cafmcp/otel/json_lines_exporter.hpp"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "cafmcp/otel/otlp_json.hpp"

namespace cafmcp::otel {

json_lines_exporter::json_lines_exporter(std::string path, resource res, std::string scope)
  : out_(path == "-" ? stdout : std::fopen(path.c_str(), "a")), owned_(path != "-"),
    resource_(std::move(res)), scope_(std::move(scope)) {
  if (!out_)
    throw std::runtime_error("cannot write traces to " + path + ": " + std::strerror(errno));
}

json_lines_exporter::~json_lines_exporter() {
  if (owned_ && out_)
    std::fclose(out_);
}

bool json_lines_exporter::export_spans(const std::vector<span_data>& spans) {
  if (spans.empty())
    return true;
  return write_line(encode_otlp_json(resource_, scope_, spans) + "\n");
}

bool json_lines_exporter::export_batch(span_batch& batch, deadline) {
  if (batch.empty())
    return true;
  encode_otlp_json(buffer_, resource_, scope_, batch);
  buffer_ += '\n';
  return write_line(buffer_);
}

bool json_lines_exporter::write_line(const std::string& line) {
  bool ok = std::fwrite(line.data(), 1, line.size(), out_) == line.size();
  return std::fflush(out_) == 0 && ok; // a line per batch, visible at once to a tail -f
}

} // namespace cafmcp::otel

#pragma once
// OTLP's binary protobuf encoding of an ExportTraceServiceRequest: what
// OTLP/HTTP sends by default (`OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf`),
// about a third of the JSON's bytes and cheaper to write. Written by hand
// from opentelemetry-proto v1 (trace.proto, common.proto, resource.proto):
// the handful of messages OTLP traces use do not justify a protobuf
// runtime and code generator in the build.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cafmcp/otel/exporter.hpp"
#include "cafmcp/otel/resource.hpp"
#include "cafmcp/otel/span_data.hpp"

namespace cafmcp::otel {

/// The same content as encode_otlp_json (one ScopeSpans per scope, a
/// group's members as whole spans with fresh span ids), as protobuf bytes.
void encode_otlp_protobuf(std::string& into, const resource& res, const std::string& default_scope,
                          const span_batch& batch);
std::string encode_otlp_protobuf(const resource& res, const std::string& default_scope,
                                 const std::vector<span_data>& spans);

/// An ExportTraceServiceResponse's partial_success, when the body is a
/// well-formed response that carries one.
struct partial_success {
  std::int64_t rejected_spans = 0;
  std::string error_message;
};
std::optional<partial_success> decode_otlp_protobuf_response(std::string_view body);

} // namespace cafmcp::otel

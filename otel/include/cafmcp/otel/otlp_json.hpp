#pragma once
// OTLP's JSON encoding of an ExportTraceServiceRequest.
#include <string>
#include <vector>

#include "cafmcp/otel/exporter.hpp"
#include "cafmcp/otel/resource.hpp"
#include "cafmcp/otel/span_data.hpp"

namespace cafmcp::otel {

/// Follows the OTLP/JSON mapping: lowerCamelCase keys, hex trace and span
/// ids, enums as integers, 64-bit integers as decimal strings. One
/// `scopeSpans` entry per instrumentation scope; spans without one go under
/// `default_scope`.
std::string encode_otlp_json(const resource& res, const std::string& default_scope,
                             const std::vector<span_data>& spans);
/// The same for a batch processor's batch: a group's members come out as
/// whole spans (fresh span ids), their shared part encoded once.
std::string encode_otlp_json(const resource& res, const std::string& default_scope, const span_batch& batch);
/// The same into `into` (replacing what it held): an exporter that keeps
/// one buffer reuses its memory, rather than faulting in fresh pages for
/// every batch (a batch of sends is hundreds of kilobytes).
void encode_otlp_json(std::string& into, const resource& res, const std::string& default_scope,
                      const span_batch& batch);

} // namespace cafmcp::otel

#pragma once
// What a collector's 2xx reply says it did not accept (OTLP's
// partialSuccess), in either encoding. The body is the collector's to
// choose: anything that is not a well-formed reply reads as "nothing
// rejected", never a throw, and the count is never negative.
#include <optional>
#include <string_view>

#include "cafmcp/otel/otlp_http_exporter.hpp"
#include "cafmcp/otel/otlp_protobuf.hpp"

namespace cafmcp::otel::detail {

/// nullopt when the body carries no partialSuccess; else its count
/// (0..INT64_MAX) and message.
/// `count_field`: the signal's name for the count in JSON (rejectedSpans,
/// rejectedDataPoints); it lands in rejected_spans either way.
std::optional<partial_success> partial_success_in(std::string_view body, otlp_protocol protocol,
                                                  const char* count_field = "rejectedSpans");
/// Reports what a reply rejected on stderr (when anything was) and returns
/// the count; `what` names the items ("spans", "data points").
std::size_t report_partial_success(const std::optional<partial_success>& ps, const char* what);

} // namespace cafmcp::otel::detail

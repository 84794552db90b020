#pragma once
// HTTP's Retry-After header (RFC 9110 §10.2.3): delay-seconds or an
// HTTP-date.
#include <chrono>
#include <optional>
#include <string_view>

namespace cafmcp::otel::detail {

/// How long to wait; a date in the past is zero. nullopt when the header is
/// neither form (the caller then falls back to its own backoff).
std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now);

} // namespace cafmcp::otel::detail

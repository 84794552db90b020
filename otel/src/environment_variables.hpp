#pragma once
// Reading OTEL_* environment variables the way the specification asks, for
// every signal's settings: unset and empty are the same, and a malformed
// number keeps the default with a word on stderr (never stdout: it may
// carry MCP stdio).
#include <chrono>
#include <optional>
#include <string>

namespace cafmcp::otel::detail {

/// The variable's value; nullopt when unset or empty.
std::optional<std::string> env(const char* name);
/// A positive integer into `target`; anything else leaves it.
void positive_from_env(const char* name, long long& target);
void positive_from_env(const char* name, std::size_t& target);
void ms_from_env(const char* name, std::chrono::milliseconds& target);
/// A signal's endpoint: `given` (a base URL) or OTEL_EXPORTER_OTLP_ENDPOINT
/// with the signal's path appended, or the signal's own variable as is.
std::optional<std::string> signal_endpoint(const std::optional<std::string>& given,
                                           const char* signal_variable, const char* signal_path);

} // namespace cafmcp::otel::detail

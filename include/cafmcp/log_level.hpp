#pragma once
// The severities of MCP logging (`logging/setLevel`, notifications/message).
#include <optional>
#include <string_view>

namespace cafmcp {

/// RFC 5424 severities as MCP names them, lowest first.
enum class log_level { debug, info, notice, warning, error, critical, alert, emergency };
/// The level MCP calls `name` ("warning"), or nullopt for any other text.
std::optional<log_level> parse_log_level(std::string_view name);
std::string_view to_string(log_level level);

} // namespace cafmcp

#pragma once
// The `k=v,k2=v2` lists of OTEL_RESOURCE_ATTRIBUTES and
// OTEL_EXPORTER_OTLP_HEADERS (W3C Baggage's format: percent-encoded,
// optional spaces around items).
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cafmcp::otel::detail {

/// Without the optional white space (spaces, tabs) W3C's list headers allow
/// around items.
std::string_view trim_ows(std::string_view s);

/// nullopt when any item lacks a key or '=' or has a broken %-escape: the
/// SDK specification discards such a variable whole rather than guess.
std::optional<std::vector<std::pair<std::string, std::string>>> parse_key_values(std::string_view text);

} // namespace cafmcp::otel::detail

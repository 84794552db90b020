#pragma once
// The MCP revisions cafmcp speaks, newest first. Transports use this to
// check the MCP-Protocol-Version header; the lifecycle uses it to negotiate.
#include <array>
#include <string_view>

namespace cafmcp {

inline constexpr std::string_view latest_protocol_version = "2025-11-25";
inline constexpr std::array<std::string_view, 4> supported_protocol_versions = {"2025-11-25", "2025-06-18",
                                                                                "2025-03-26", "2024-11-05"};
/// Assumed by Streamable HTTP when a request carries no version header.
inline constexpr std::string_view default_http_protocol_version = "2025-03-26";

constexpr bool is_supported_protocol_version(std::string_view v) {
  for (auto s : supported_protocol_versions)
    if (s == v)
      return true;
  return false;
}

/// The stateless revision (no initialize, no sessions: every request names
/// its version, capabilities and client in `_meta`). Served beside the
/// dated revisions above, from the same endpoint.
inline constexpr std::string_view stateless_protocol_version = "2026-07-28";

constexpr bool is_stateless_protocol_version(std::string_view v) { return v == stateless_protocol_version; }

} // namespace cafmcp

#pragma once
// Server-sent event framing. The JSON payload is never copied: an event is
// a small header of its own plus the shared frame plus a terminator.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace cafmcp::http {

/// Event ids encode their stream: "<stream>-<seq>".
inline std::string event_id(std::uint64_t stream, std::uint64_t seq) {
  return std::to_string(stream) + "-" + std::to_string(seq);
}

/// Parses "<stream>-<seq>"; false on anything else.
bool parse_event_id(const std::string& text, std::uint64_t& stream, std::uint64_t& seq);

/// "id: <stream>-<seq>\ndata: " — what precedes the frame — written into
/// `out` (at least max_event_head bytes); returns its length. No allocation:
/// it is built once per delivery.
/// (Room for either kind of id: "<stream>-<seq>" or a stream_mark's.)
inline constexpr std::size_t max_event_head = 4 + 1 + 20 + 1 + 20 + 1 + 10 + 1 + 10 + 7;
std::size_t write_event_head(char* out, std::uint64_t stream, std::uint64_t seq);
inline constexpr std::string_view event_tail = "\n\n";

/// The first event of a stream: an id to resume from, no data; `retry`
/// tells the client how long to wait before reconnecting.
inline std::string priming_event(const std::string& id, std::uint64_t retry_ms) {
  return "id: " + id + "\nretry: " + std::to_string(retry_ms) + "\ndata: \n\n";
}

/// Sent just before the server closes a stream the client should resume:
/// no data, so nothing is dispatched, but the client (re)learns the delay.
inline std::string retry_field(std::uint64_t retry_ms) {
  return "retry: " + std::to_string(retry_ms) + "\n\n";
}

inline constexpr const char* keep_alive_comment = ": keep-alive\n\n";

} // namespace cafmcp::http

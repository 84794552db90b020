#pragma once
// The event id of a clustered session's standalone GET stream. A
// notification from the change log is named by its log_mark, which every
// node gives it alike, so a client resumes on any node; a message of the
// session's own (a log message, a server->client request: not in the log)
// is named after the mark before it, counted by the node that sent it.
// Text: "L<ms>-<seq>.<k>.<own>".
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "cafmcp/transport.hpp"

namespace cafmcp::http {

struct stream_mark {
  log_mark at;
  std::uint32_t own = 0; // 0: the log's notification itself
  auto operator<=>(const stream_mark&) const = default;

  /// The next message of the session's own after this one.
  stream_mark next_own() const { return {at, own + 1}; }
  std::string text() const;
  /// text() written into `out` (at least max_text bytes), no allocation:
  /// once per event on a live stream. Returns its length.
  static constexpr std::size_t max_text = 1 + 20 + 1 + 20 + 1 + 10 + 1 + 10;
  std::size_t write(char* out) const;
  /// nullopt for anything but text() output.
  static std::optional<stream_mark> parse(std::string_view text);

private:
  std::size_t write_text(char* out) const;
};

} // namespace cafmcp::http

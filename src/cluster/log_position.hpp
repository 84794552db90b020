#pragma once
// Where an entry sits in the cluster's change log. Redis Streams ids are
// "<milliseconds>-<sequence>"; the in-memory log uses "0-<n>". Ordered as
// the log is, so a reader can say "after this one".
#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cafmcp::cluster {

struct log_position {
  std::uint64_t ms = 0;
  std::uint64_t seq = 0;
  auto operator<=>(const log_position&) const = default;

  /// "ms-seq", as Redis writes stream ids.
  std::string text() const;
  /// The same text back; nullopt for anything else.
  static std::optional<log_position> parse(std::string_view text);
};

} // namespace cafmcp::cluster

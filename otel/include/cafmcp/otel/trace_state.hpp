#pragma once
// W3C `tracestate`: the vendor-specific list that travels with a trace id.
// Parsed strictly (a malformed header is dropped whole, as the W3C
// recommends, never half-understood) and updated the way the spec orders
// it: a changed entry moves to the front.
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cafmcp::otel {

class trace_state {
public:
  static constexpr std::size_t max_members = 32;

  trace_state() = default;
  /// nullopt for anything the W3C grammar rejects: bad keys or values,
  /// duplicate keys, more than 32 members. Empty list members are skipped.
  static std::optional<trace_state> parse(std::string_view header);
  static bool valid_key(std::string_view key);
  static bool valid_value(std::string_view value);

  std::optional<std::string_view> get(std::string_view key) const;
  /// Inserts or updates `key` at the front; a full list loses its last
  /// (oldest) member. Invalid keys or values leave the state unchanged and
  /// return false.
  bool set(std::string_view key, std::string_view value);
  bool erase(std::string_view key);

  std::size_t size() const { return members_.size(); }
  bool empty() const { return members_.empty(); }
  /// `k1=v1,k2=v2`: the canonical header form, without optional spaces.
  std::string to_header() const;

private:
  std::vector<std::pair<std::string, std::string>> members_;
};

} // namespace cafmcp::otel

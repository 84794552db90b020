#pragma once
// The opaque `requestState` of 2026-07-28 multi-round-trip requests: the
// server's own JSON, sealed with HMAC-SHA256 under a key that never leaves
// the process, so a client can carry it between rounds but not alter it.
// Sealed text: base64url(payload) "." hex(mac).
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "cafmcp/json.hpp"

namespace cafmcp::protocol {

class request_state_seal {
public:
  using key_bytes = std::array<unsigned char, 32>;
  explicit request_state_seal(const key_bytes& key) : key_(key) {}
  /// A fresh key from the kernel's CSPRNG (one per process).
  static request_state_seal with_random_key();
  /// A key derived from `secret` (SHA-256), shared by the nodes of a
  /// cluster; a fresh random key when `secret` is empty.
  static request_state_seal for_secret(std::string_view secret);

  std::string seal(const json& state) const;
  /// The state, or nothing when the text was not sealed by this key
  /// (tampered, truncated, from another process).
  std::optional<json> open(std::string_view sealed) const;

private:
  key_bytes key_;
};

} // namespace cafmcp::protocol

#pragma once
// RFC 3986 percent-encoding, shared by URI-template matching and JSON
// Schema `$ref` fragments.
#include <optional>
#include <string>
#include <string_view>

namespace cafmcp::detail {

bool is_hex_digit(char c);

/// Decodes every %XX; nullopt when a '%' is not followed by two hex digits
/// (a broken escape is refused, not guessed at).
std::optional<std::string> percent_decode(std::string_view s);

} // namespace cafmcp::detail

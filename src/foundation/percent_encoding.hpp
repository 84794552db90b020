#pragma once
// RFC 3986 percent-encoding, shared by URI-template matching, JSON Schema
// `$ref` fragments and the URIs components make of file names.
#include <optional>
#include <string>
#include <string_view>

namespace cafmcp::detail {

bool is_hex_digit(char c);
/// RFC 3986 unreserved: ALPHA / DIGIT / "-" / "." / "_" / "~".
bool is_unreserved(char c);
/// Appends `c` as %XX (uppercase hex, as RFC 3986 recommends).
void append_percent_encoded(std::string& out, char c);

/// A path for a URI: every byte but RFC 3986's unreserved characters and
/// '/' becomes %XX, so a file name with a space, '#', '%', non-ASCII
/// letters or bytes that are not UTF-8 still gives a valid URI, and
/// percent_decode gives the name back exactly.
std::string percent_encode_path(std::string_view path);

/// Decodes every %XX; nullopt when a '%' is not followed by two hex digits
/// (a broken escape is refused, not guessed at).
std::optional<std::string> percent_decode(std::string_view s);

} // namespace cafmcp::detail

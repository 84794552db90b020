#pragma once
// RFC 4648 base64: blobs in resource contents and Mcp-Name headers use the
// standard alphabet with padding; cursors and request state the URL-safe
// one without.
#include <optional>
#include <string>
#include <string_view>

namespace cafmcp::detail {

enum class base64_alphabet { standard, url };

std::string base64_encode(std::string_view in, base64_alphabet a = base64_alphabet::standard);
/// nullopt on a character outside the alphabet; trailing '=' padding is
/// accepted with either alphabet.
std::optional<std::string> base64_decode(std::string_view in, base64_alphabet a = base64_alphabet::standard);

} // namespace cafmcp::detail

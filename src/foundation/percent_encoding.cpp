#include "foundation/percent_encoding.hpp"

namespace cafmcp::detail {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  return (c | 0x20) - 'a' + 10;
}

} // namespace

bool is_hex_digit(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size() || !is_hex_digit(s[i + 1]) || !is_hex_digit(s[i + 2]))
      return std::nullopt;
    out.push_back(static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2])));
    i += 2;
  }
  return out;
}

} // namespace cafmcp::detail

#pragma once
// HTTP's case-insensitivity (header names, media types, auth schemes) is
// ASCII's: no locale, and no libc call per byte on the request path.
#include <cstddef>
#include <string_view>

namespace cafmcp {

constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

constexpr bool ascii_iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i]))
      return false;
  return true;
}

} // namespace cafmcp

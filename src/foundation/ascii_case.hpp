#pragma once
// HTTP's case-insensitivity (header names, media types, auth schemes) is
// ASCII's: no locale, and no libc call per byte on the request path.
#include <cstddef>
#include <string_view>
#include <type_traits>

namespace cafmcp {

constexpr char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// Most text a server compares this way comes in the case it is compared
// with ("application/json" against an Accept header's "application/json"):
// equal bytes are judged whole first (a tools/call's Accept checks took
// ~700 instructions a byte at a time), the byte-wise loop only when they
// differ.
constexpr bool ascii_iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  if (!std::is_constant_evaluated() && a == b)
    return true;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i]))
      return false;
  return true;
}

} // namespace cafmcp

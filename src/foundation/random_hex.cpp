#include "foundation/random_hex.hpp"

#include <sys/random.h>
#include <vector>

namespace cafmcp::detail {

std::string random_hex(std::size_t bytes) {
  std::vector<unsigned char> raw(bytes);
  std::size_t got = 0;
  while (got < bytes) {
    auto n = ::getrandom(raw.data() + got, bytes - got, 0);
    if (n > 0)
      got += static_cast<std::size_t>(n);
  }
  static constexpr char digits[] = "0123456789abcdef";
  std::string out;
  out.reserve(bytes * 2);
  for (auto b : raw) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

} // namespace cafmcp::detail

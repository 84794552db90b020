#include "streamable_http/session_id.hpp"

#include <sys/random.h>

namespace cafmcp::http {

std::string new_session_id(std::size_t loop, std::size_t loops) {
  unsigned char raw[16];
  std::size_t got = 0;
  while (got < sizeof raw) {
    auto n = ::getrandom(raw + got, sizeof raw - got, 0);
    if (n > 0)
      got += static_cast<std::size_t>(n);
  }
  if (loops > 1)
    raw[sizeof raw - 1] = static_cast<unsigned char>((raw[sizeof raw - 1] & 0xf0) | loop);
  static const char* hex = "0123456789abcdef";
  std::string id;
  for (auto b : raw) {
    id.push_back(hex[b >> 4]);
    id.push_back(hex[b & 15]);
  }
  return id;
}

std::optional<std::size_t> loop_of(std::string_view session_id, std::size_t loops) {
  if (loops < 2)
    return 0;
  if (session_id.empty())
    return std::nullopt;
  char last = session_id.back();
  std::size_t n = last >= '0' && last <= '9'   ? static_cast<std::size_t>(last - '0')
                  : last >= 'a' && last <= 'f' ? static_cast<std::size_t>(last - 'a' + 10)
                                               : 16;
  if (n >= 16)
    return std::nullopt;
  // Ours name their loop (n < loops); another cluster node's, made for
  // another number of loops, still map to one loop, always the same.
  return n % loops;
}

} // namespace cafmcp::http

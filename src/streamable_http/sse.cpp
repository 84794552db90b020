#include "streamable_http/sse.hpp"

#include <charconv>

namespace cafmcp::http {

bool parse_event_id(const std::string& text, std::uint64_t& stream, std::uint64_t& seq) {
  auto dash = text.find('-');
  if (dash == std::string::npos || dash == 0 || dash + 1 >= text.size())
    return false;
  auto end = text.data() + text.size();
  auto r1 = std::from_chars(text.data(), text.data() + dash, stream);
  auto r2 = std::from_chars(text.data() + dash + 1, end, seq);
  return r1.ec == std::errc{} && r1.ptr == text.data() + dash && r2.ec == std::errc{} && r2.ptr == end;
}

} // namespace cafmcp::http

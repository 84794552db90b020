#include "streamable_http/sse.hpp"

#include <charconv>
#include <cstring>

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

std::size_t write_event_head(char* out, std::uint64_t stream, std::uint64_t seq) {
  char* p = out;
  auto put = [&p](std::string_view s) {
    std::memcpy(p, s.data(), s.size());
    p += s.size();
  };
  put("id: ");
  p = std::to_chars(p, out + max_event_head, stream).ptr;
  put("-");
  p = std::to_chars(p, out + max_event_head, seq).ptr;
  put("\ndata: ");
  return static_cast<std::size_t>(p - out);
}

} // namespace cafmcp::http

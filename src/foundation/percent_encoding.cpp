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

bool is_unreserved(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.'
         || c == '_' || c == '~';
}

void append_percent_encoded(std::string& out, char c) {
  static const char* hex = "0123456789ABCDEF";
  auto u = static_cast<unsigned char>(c);
  out.push_back('%');
  out.push_back(hex[u >> 4]);
  out.push_back(hex[u & 15]);
}

std::string percent_encode_path(std::string_view path) {
  std::string out;
  out.reserve(path.size());
  for (char c : path)
    if (is_unreserved(c) || c == '/')
      out.push_back(c);
    else
      append_percent_encoded(out, c);
  return out;
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

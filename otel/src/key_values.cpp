#include "key_values.hpp"

namespace cafmcp::otel::detail {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

std::optional<std::string> percent_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] != '%') {
      out.push_back(s[i]);
      continue;
    }
    if (i + 2 >= s.size())
      return std::nullopt;
    int hi = hex_digit(s[i + 1]), lo = hex_digit(s[i + 2]);
    if (hi < 0 || lo < 0)
      return std::nullopt;
    out.push_back(static_cast<char>(hi << 4 | lo));
    i += 2;
  }
  return out;
}

} // namespace

std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

std::optional<std::vector<std::pair<std::string, std::string>>> parse_key_values(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t pos = 0;
  for (;;) {
    auto comma = text.find(',', pos);
    auto item =
      trim_ows(text.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
    if (!item.empty()) {
      auto eq = item.find('=');
      if (eq == std::string_view::npos)
        return std::nullopt;
      auto key = percent_decode(trim_ows(item.substr(0, eq)));
      auto value = percent_decode(trim_ows(item.substr(eq + 1)));
      if (!key || !value || key->empty())
        return std::nullopt;
      out.emplace_back(std::move(*key), std::move(*value));
    }
    if (comma == std::string_view::npos)
      return out;
    pos = comma + 1;
  }
}

} // namespace cafmcp::otel::detail

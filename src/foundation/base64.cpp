#include "foundation/base64.hpp"

namespace cafmcp::detail {
namespace {

std::string_view alphabet(base64_alphabet a) {
  return a == base64_alphabet::standard ? "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
                                        : "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
}

} // namespace

std::string base64_encode(std::string_view in, base64_alphabet a) {
  auto digits = alphabet(a);
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  unsigned v = 0;
  int bits = 0;
  for (unsigned char c : in) {
    v = (v << 8) | c;
    bits += 8;
    while (bits >= 6) {
      bits -= 6;
      out.push_back(digits[(v >> bits) & 63]);
    }
  }
  if (bits > 0)
    out.push_back(digits[(v << (6 - bits)) & 63]);
  if (a == base64_alphabet::standard)
    while (out.size() % 4)
      out.push_back('=');
  return out;
}

std::optional<std::string> base64_decode(std::string_view in, base64_alphabet a) {
  auto digits = alphabet(a);
  while (!in.empty() && in.back() == '=')
    in.remove_suffix(1);
  std::string out;
  unsigned v = 0;
  int bits = 0;
  for (char c : in) {
    auto pos = digits.find(c);
    if (pos == std::string_view::npos)
      return std::nullopt;
    v = (v << 6) | static_cast<unsigned>(pos);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<char>((v >> bits) & 0xff));
    }
  }
  return out;
}

} // namespace cafmcp::detail

#include "protocol/pagination.hpp"

namespace cafmcp::protocol {
namespace {

constexpr std::string_view alphabet =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

std::string base64url(std::string_view in) {
  std::string out;
  unsigned val = 0;
  int bits = -6;
  for (unsigned char c : in) {
    val = (val << 8) + c;
    bits += 8;
    while (bits >= 0) {
      out.push_back(alphabet[(val >> bits) & 0x3F]);
      bits -= 6;
    }
  }
  if (bits > -6)
    out.push_back(alphabet[((val << 8) >> (bits + 8)) & 0x3F]);
  return out;
}

std::optional<std::string> unbase64url(std::string_view in) {
  std::string out;
  unsigned val = 0;
  int bits = -8;
  for (char c : in) {
    auto pos = alphabet.find(c);
    if (pos == std::string_view::npos)
      return std::nullopt;
    val = (val << 6) + static_cast<unsigned>(pos);
    bits += 6;
    if (bits >= 0) {
      out.push_back(static_cast<char>((val >> bits) & 0xFF));
      bits -= 8;
    }
  }
  return out;
}

} // namespace

std::string encode_cursor(std::string_view kind, std::string_view last_key) {
  std::string plain = "v1:";
  plain.append(kind).append(":").append(last_key);
  return base64url(plain);
}

std::optional<std::string> decode_cursor(std::string_view kind, std::string_view cursor) {
  auto plain = unbase64url(cursor);
  if (!plain)
    return std::nullopt;
  std::string prefix = "v1:";
  prefix.append(kind).append(":");
  if (plain->compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  return plain->substr(prefix.size());
}

} // namespace cafmcp::protocol

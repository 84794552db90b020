#include "protocol/pagination.hpp"

#include "foundation/base64.hpp"

namespace cafmcp::protocol {

std::string encode_cursor(std::string_view kind, std::string_view last_key) {
  std::string plain = "v1:";
  plain.append(kind).append(":").append(last_key);
  return detail::base64_encode(plain, detail::base64_alphabet::url);
}

std::optional<std::string> decode_cursor(std::string_view kind, std::string_view cursor) {
  auto plain = detail::base64_decode(cursor, detail::base64_alphabet::url);
  if (!plain)
    return std::nullopt;
  std::string prefix = "v1:";
  prefix.append(kind).append(":");
  if (plain->compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  return plain->substr(prefix.size());
}

} // namespace cafmcp::protocol

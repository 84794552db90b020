#pragma once
// A hash for maps keyed by std::string that are looked up by a view (with
// std::equal_to<>): a session id or a token read from a request's header
// is found without being copied into a string first (a 32-byte id is past
// the short-string buffer: an allocation a lookup).
#include <cstddef>
#include <functional>
#include <string_view>

namespace cafmcp {

struct string_hash {
  using is_transparent = void;
  std::size_t operator()(std::string_view s) const noexcept { return std::hash<std::string_view>{}(s); }
};

} // namespace cafmcp

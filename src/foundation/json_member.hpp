#pragma once
// Reading a member of JSON a peer sent. json::value(key, default) throws when
// the member is there with another type ("isError": "no", "code": "x"), and
// a peer chooses its types: the client library and cafmcp-check read with
// member_or, which falls back instead.
#include <string>
#include <type_traits>

#include "cafmcp/json.hpp"

namespace cafmcp {

/// `j[key]` when `j` is an object holding a `T` there (a string, a bool or
/// an integer), else `fallback`.
template <class T>
T member_or(const json& j, const char* key, T fallback) {
  if (!j.is_object())
    return fallback;
  auto it = j.find(key);
  if (it == j.end())
    return fallback;
  if constexpr (std::is_same_v<T, bool>) {
    if (it->is_boolean())
      return it->template get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    if (it->is_number_integer())
      return it->template get<T>();
  } else if (it->is_string()) {
    return it->template get<std::string>();
  }
  return fallback;
}

inline std::string member_or(const json& j, const char* key, const char* fallback) {
  return member_or<std::string>(j, key, fallback);
}

} // namespace cafmcp

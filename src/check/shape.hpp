#pragma once
// Pure judgements of single messages, unit-tested on their own.
#include <optional>
#include <string>
#include <type_traits>

#include "cafmcp/json.hpp"

namespace cafmcp::check {

/// `j[key]` when `j` is an object holding a `T` there (a string, a bool or
/// an integer), else `fallback`. What a server sends is judged, never
/// thrown on: json::value() throws when the member has another type.
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

/// Why `m` (a message whose method starts with "notifications/") is not a
/// well-formed JSON-RPC notification, or nullopt: jsonrpc "2.0", a string
/// method, no id, params an object or absent (never null, never an array).
std::optional<std::string> notification_shape_problem(const json& m);

/// True when a list_changed notification carries cafmcp's operation
/// metadata, in params (`operation`) or under params._meta["io.cafmcp/change"].
bool has_operation_metadata(const json& m);

/// True when `m`'s params name `key` (the added/removed item) anywhere:
/// lets a checker tell its own changes apart when a server says which.
bool mentions(const json& m, const std::string& key);

} // namespace cafmcp::check

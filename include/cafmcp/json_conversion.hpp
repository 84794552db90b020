#pragma once
// Values of the types json_schema.hpp describes, to and from JSON, by the
// same mapping. Reading checks what a schema cannot say about a C++ type (an
// integer that does not fit an `int`, a negative number for an unsigned) and
// names where it failed, in the JSON-pointer form the schema checks use
// ("/days: 99999999999 does not fit"), so a typed tool's conversion error
// reads like its validation errors.
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>

#include "cafmcp/json.hpp"
#include "cafmcp/json_schema.hpp"

namespace cafmcp {

/// A JSON value that does not convert to the C++ type; what() is
/// "<JSON pointer>: <what is wrong>".
class conversion_error : public std::invalid_argument {
public:
  using std::invalid_argument::invalid_argument;
};

namespace detail {

inline std::string pointer_or_root(const std::string& at) { return at.empty() ? "/" : at; }

[[noreturn]] inline void conversion_failed(const std::string& at, const std::string& what) {
  throw conversion_error(pointer_or_root(at) + ": " + what);
}

inline std::string pointer_token(std::string key) { // RFC 6901 escaping
  std::string out;
  for (char c : key)
    out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
  return out;
}

template <class T>
void read_json(const json& j, T& out, const std::string& at);

template <class T>
void read_integer(const json& j, T& out, const std::string& at) {
  using limits = std::numeric_limits<T>;
  if (j.is_number_unsigned()) {
    auto v = j.get<std::uint64_t>();
    if (v > static_cast<std::uint64_t>(limits::max()))
      conversion_failed(at, j.dump() + " does not fit");
    out = static_cast<T>(v);
  } else if (j.is_number_integer()) {
    auto v = j.get<std::int64_t>();
    if constexpr (std::is_unsigned_v<T>) {
      if (v < 0)
        conversion_failed(at, j.dump() + " is negative; expected an unsigned integer");
      if (static_cast<std::uint64_t>(v) > static_cast<std::uint64_t>(limits::max()))
        conversion_failed(at, j.dump() + " does not fit");
    } else if (v < static_cast<std::int64_t>(limits::min()) || v > static_cast<std::int64_t>(limits::max())) {
      conversion_failed(at, j.dump() + " does not fit");
    }
    out = static_cast<T>(v);
  } else if (j.is_number_float()) {
    // JSON Schema counts 3.0 as an integer; a fraction or a value out of
    // range is not one.
    double v = j.get<double>();
    if (!std::isfinite(v) || std::trunc(v) != v)
      conversion_failed(at, "expected integer, got " + j.dump());
    if (v < static_cast<double>(limits::min()) || v >= std::ldexp(1.0, limits::digits))
      conversion_failed(at, j.dump() + " does not fit");
    out = static_cast<T>(v);
  } else {
    conversion_failed(at, std::string("expected integer, got ") + j.type_name());
  }
}

template <class T>
void read_json(const json& j, T& out, const std::string& at) {
  if constexpr (std::is_same_v<T, bool>) {
    if (!j.is_boolean())
      conversion_failed(at, std::string("expected boolean, got ") + j.type_name());
    out = j.get<bool>();
  } else if constexpr (std::is_integral_v<T>) {
    read_integer(j, out, at);
  } else if constexpr (std::is_floating_point_v<T>) {
    if (!j.is_number())
      conversion_failed(at, std::string("expected number, got ") + j.type_name());
    out = j.get<T>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!j.is_string())
      conversion_failed(at, std::string("expected string, got ") + j.type_name());
    out = j.get<std::string>();
  } else if constexpr (std::is_same_v<T, json>) {
    out = j;
  } else if constexpr (described_enum<T>) {
    if (!j.is_string())
      conversion_failed(at, std::string("expected string, got ") + j.type_name());
    const auto& s = j.get_ref<const std::string&>();
    for (auto& [value, name] : enum_names_of<T>())
      if (name == s) {
        out = value;
        return;
      }
    conversion_failed(at, "\"" + s + "\" is not one of the allowed names");
  } else if constexpr (is_vector<T>::value) {
    if (!j.is_array())
      conversion_failed(at, std::string("expected array, got ") + j.type_name());
    out.clear();
    out.reserve(j.size());
    for (std::size_t i = 0; i < j.size(); ++i) {
      typename T::value_type element{}; // not emplace_back's reference: vector<bool> has none
      read_json(j[i], element, at + "/" + std::to_string(i));
      out.push_back(std::move(element));
    }
  } else if constexpr (is_string_map<T>::value) {
    if (!j.is_object())
      conversion_failed(at, std::string("expected object, got ") + j.type_name());
    out.clear();
    for (auto& [key, value] : j.items())
      read_json(value, out[key], at + "/" + pointer_token(key));
  } else if constexpr (described_struct<T>) {
    if (!j.is_object())
      conversion_failed(at, std::string("expected object, got ") + j.type_name());
    std::apply(
      [&](const auto&... f) {
        [[maybe_unused]] auto one = [&](const auto& d) {
          using member = typename std::decay_t<decltype(d)>::member_type;
          auto& target = out.*(d.member);
          std::string key(d.name);
          auto it = j.find(key);
          // Null reads as absent for an optional field (the derived schema
          // refuses it before a tool's handler; a direct caller may pass it).
          bool present = it != j.end() && !(is_optional<member>::value && it->is_null());
          if constexpr (is_optional<member>::value) {
            if (present)
              read_json(*it, target.emplace(), at + "/" + pointer_token(key));
            else
              target.reset();
          } else {
            if (!present)
              conversion_failed(at, "missing required property " + key);
            read_json(*it, target, at + "/" + pointer_token(key));
          }
        };
        (one(f), ...);
      },
      fields_of<T>());
  } else {
    static_assert(always_false<T>,
                  "cafmcp: no JSON conversion for this type (see json_schema.hpp for the supported ones)");
  }
}

template <class T>
json write_json(const T& v) {
  if constexpr (
    std::is_same_v<
      T, bool> || std::is_arithmetic_v<T> || std::is_same_v<T, std::string> || std::is_same_v<T, json>) {
    return json(v);
  } else if constexpr (described_enum<T>) {
    for (auto& [value, name] : enum_names_of<T>())
      if (value == v)
        return std::string(name);
    throw std::invalid_argument("cafmcp: an enum value without a name in its CAFMCP_ENUM");
  } else if constexpr (is_vector<T>::value) {
    json out = json::array();
    for (const auto& e : v)
      out.push_back(write_json(e));
    return out;
  } else if constexpr (is_string_map<T>::value) {
    json out = json::object();
    for (const auto& [key, value] : v)
      out[key] = write_json(value);
    return out;
  } else if constexpr (described_struct<T>) {
    json out = json::object();
    std::apply(
      [&](const auto&... f) {
        [[maybe_unused]] auto one = [&](const auto& d) {
          using member = typename std::decay_t<decltype(d)>::member_type;
          const auto& value = v.*(d.member);
          if constexpr (is_optional<member>::value) {
            if (value)
              out[std::string(d.name)] = write_json(*value);
          } else {
            out[std::string(d.name)] = write_json(value);
          }
        };
        (one(f), ...);
      },
      fields_of<T>());
    return out;
  } else {
    static_assert(always_false<T>,
                  "cafmcp: no JSON conversion for this type (see json_schema.hpp for the supported ones)");
    return {};
  }
}

} // namespace detail

/// Reads a T out of `j`; throws conversion_error naming where and why.
template <class T>
T from_json_value(const json& j) {
  T out{};
  detail::read_json(j, out, "");
  return out;
}

/// T as JSON (an optional field that is empty is left out).
template <class T>
json to_json_value(const T& value) {
  return detail::write_json(value);
}

} // namespace cafmcp

// Described types work with nlohmann's own conversions too: `json j = value;`
// and `j.get<T>()`.
namespace nlohmann {
template <class T>
requires cafmcp::described_struct<T> || cafmcp::described_enum<T>
struct adl_serializer<T, void> {
  static void to_json(json& j, const T& value) { j = cafmcp::to_json_value(value); }
  static void from_json(const json& j, T& value) { value = cafmcp::from_json_value<T>(j); }
};
} // namespace nlohmann

#pragma once
// JSON Schema derived from a C++ type, so that a typed tool's inputSchema and
// outputSchema are written by the compiler, not by hand next to the code that
// reads the arguments. The mapping (json_conversion.hpp follows the same one):
//
//   bool                          {"type": "boolean"}
//   integers (not bool)           {"type": "integer"}
//   float, double, long double    {"type": "number"}
//   std::string                   {"type": "string"}
//   enum with CAFMCP_ENUM         {"type": "string", "enum": [its names]}
//   std::vector<T>                {"type": "array", "items": <T>}
//   std::map<std::string, T>      {"type": "object", "additionalProperties": <T>}
//   cafmcp::json                  {} (any value)
//   struct with CAFMCP_FIELDS     {"type": "object", "properties": {...},
//                                  "required": [the non-optional fields, in
//                                  declaration order; absent if none],
//                                  "additionalProperties": false}
//
// A field's description becomes its property's "description". A struct's
// unknown properties are refused ("additionalProperties": false, as the Go
// SDK's inferred schemas do): a model that misspells an optional argument
// hears about it instead of having it silently ignored.
// std::optional<T> makes a field optional; anywhere else it is refused at
// compile time (a JSON Schema "optional array element" means nothing).
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "cafmcp/fields.hpp"
#include "cafmcp/json.hpp"

namespace cafmcp {

namespace detail {

template <class T>
struct is_optional : std::false_type {};
template <class T>
struct is_optional<std::optional<T>> : std::true_type {};

template <class T>
struct is_vector : std::false_type {};
template <class T, class A>
struct is_vector<std::vector<T, A>> : std::true_type {};

template <class T>
struct is_string_map : std::false_type {};
template <class T, class C, class A>
struct is_string_map<std::map<std::string, T, C, A>> : std::true_type {};

template <class T>
inline constexpr bool always_false = false;

template <class T>
struct optional_value {
  using type = T;
};
template <class T>
struct optional_value<std::optional<T>> {
  using type = T;
};

} // namespace detail

/// The JSON Schema of T (see the table above). A type outside the table is
/// a compile error naming what is supported.
template <class T>
json json_schema_of() {
  if constexpr (std::is_same_v<T, bool>) {
    return {{"type", "boolean"}};
  } else if constexpr (std::is_integral_v<T>) {
    return {{"type", "integer"}};
  } else if constexpr (std::is_floating_point_v<T>) {
    return {{"type", "number"}};
  } else if constexpr (std::is_same_v<T, std::string>) {
    return {{"type", "string"}};
  } else if constexpr (std::is_same_v<T, json>) {
    return json::object();
  } else if constexpr (described_enum<T>) {
    json names = json::array();
    for (auto& [value, name] : enum_names_of<T>())
      names.push_back(std::string(name));
    return {{"type", "string"}, {"enum", std::move(names)}};
  } else if constexpr (detail::is_vector<T>::value) {
    return {{"type", "array"}, {"items", json_schema_of<typename T::value_type>()}};
  } else if constexpr (detail::is_string_map<T>::value) {
    return {{"type", "object"}, {"additionalProperties", json_schema_of<typename T::mapped_type>()}};
  } else if constexpr (described_struct<T>) {
    json properties = json::object();
    json required = json::array();
    std::apply(
      [&](const auto&... f) {
        [[maybe_unused]] auto one = [&](const auto& d) {
          using member = typename std::decay_t<decltype(d)>::member_type;
          json property = json_schema_of<typename detail::optional_value<member>::type>();
          if (!d.description.empty())
            property["description"] = std::string(d.description);
          properties[std::string(d.name)] = std::move(property);
          if constexpr (!detail::is_optional<member>::value)
            required.push_back(std::string(d.name));
        };
        (one(f), ...);
      },
      fields_of<T>());
    json schema = {{"type", "object"}, {"properties", std::move(properties)}};
    if (!required.empty())
      schema["required"] = std::move(required);
    schema["additionalProperties"] = false;
    return schema;
  } else if constexpr (detail::is_optional<T>::value) {
    static_assert(detail::always_false<T>,
                  "cafmcp: std::optional is supported as a struct field only (it makes the field optional)");
    return {};
  } else {
    static_assert(detail::always_false<T>,
                  "cafmcp: no JSON Schema for this type. Supported: bool, integers, floating point, "
                  "std::string, cafmcp::json, enums with CAFMCP_ENUM, std::vector, "
                  "std::map<std::string, T>, structs with CAFMCP_FIELDS (std::optional fields)");
    return {};
  }
}

} // namespace cafmcp

#pragma once
// What a C++ type looks like as JSON, said once next to the type. C++20 has
// no reflection, so a struct lists its fields (and an enum its names) in a
// macro; json_schema.hpp derives a JSON Schema from that list and
// json_conversion.hpp converts values both ways, so the schema a client sees
// and the value a handler gets cannot disagree.
//
//   struct weather_args { std::string city; std::optional<int> days; };
//   CAFMCP_FIELDS(weather_args, (city, "City name"), (days, "Forecast days, 1-7"));
//
//   enum class unit { celsius, fahrenheit };
//   CAFMCP_ENUM(unit, (celsius), (fahrenheit, "F"));  // JSON names "celsius", "F"
//
// Both macros go at namespace scope, in the type's own namespace (the lists
// are found by argument-dependent lookup). A field's description is
// optional: `(city)` alone lists it without one.
#include <array>
#include <cstddef>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

namespace cafmcp {

/// One listed field: its JSON name, where it lives, what it means.
template <class Struct, class Member>
struct field {
  using struct_type = Struct;
  using member_type = Member;
  std::string_view name;
  Member Struct::*member;
  std::string_view description; // empty: none
};

namespace detail {

template <class S, class M>
constexpr field<S, M> make_field(std::string_view name, M S::*member, std::string_view description = {}) {
  return {name, member, description};
}

// Poison pills: unqualified calls below find only what the macros define
// next to a user's type, never something of the same name in cafmcp.
void cafmcp_fields() = delete;
void cafmcp_enum_names() = delete;

template <class T>
concept has_fields = requires(const T* p) {
  cafmcp_fields(p);
};

template <class T>
concept has_enum_names = std::is_enum_v<T> && requires(const T* p) {
  cafmcp_enum_names(p);
};

} // namespace detail

/// A struct described with CAFMCP_FIELDS.
template <class T>
concept described_struct = std::is_class_v<T> && detail::has_fields<T>;

/// An enum described with CAFMCP_ENUM.
template <class T>
concept described_enum = detail::has_enum_names<T>;

/// The fields of a described struct, as a std::tuple of cafmcp::field.
template <described_struct T>
constexpr auto fields_of() {
  using detail::cafmcp_fields;
  return cafmcp_fields(static_cast<const T*>(nullptr));
}

/// The (value, JSON name) pairs of a described enum, as a std::array.
template <described_enum T>
constexpr auto enum_names_of() {
  using detail::cafmcp_enum_names;
  return cafmcp_enum_names(static_cast<const T*>(nullptr));
}

} // namespace cafmcp

// -- macro machinery: apply a macro to each (parenthesised) argument --------
// Rescanning 4^4 = 256 times allows up to about 256 fields; each round peels
// one argument off (the _AGAIN indirection keeps the macro from being
// "painted blue" so that it can expand again in the next rescan).
#define CAFMCP_DETAIL_PARENS ()
#define CAFMCP_DETAIL_EXPAND(...)                                                                            \
  CAFMCP_DETAIL_EXPAND3(CAFMCP_DETAIL_EXPAND3(CAFMCP_DETAIL_EXPAND3(CAFMCP_DETAIL_EXPAND3(__VA_ARGS__))))
#define CAFMCP_DETAIL_EXPAND3(...)                                                                           \
  CAFMCP_DETAIL_EXPAND2(CAFMCP_DETAIL_EXPAND2(CAFMCP_DETAIL_EXPAND2(CAFMCP_DETAIL_EXPAND2(__VA_ARGS__))))
#define CAFMCP_DETAIL_EXPAND2(...)                                                                           \
  CAFMCP_DETAIL_EXPAND1(CAFMCP_DETAIL_EXPAND1(CAFMCP_DETAIL_EXPAND1(CAFMCP_DETAIL_EXPAND1(__VA_ARGS__))))
#define CAFMCP_DETAIL_EXPAND1(...) __VA_ARGS__
#define CAFMCP_DETAIL_FOR_EACH(macro, type, ...)                                                             \
  __VA_OPT__(CAFMCP_DETAIL_EXPAND(CAFMCP_DETAIL_FOR_EACH_STEP(macro, type, __VA_ARGS__)))
#define CAFMCP_DETAIL_FOR_EACH_STEP(macro, type, first, ...)                                                 \
  macro(type, first) __VA_OPT__(, CAFMCP_DETAIL_FOR_EACH_AGAIN CAFMCP_DETAIL_PARENS(macro, type, __VA_ARGS__))
#define CAFMCP_DETAIL_FOR_EACH_AGAIN() CAFMCP_DETAIL_FOR_EACH_STEP
#define CAFMCP_DETAIL_UNPAREN(...) __VA_ARGS__
#define CAFMCP_DETAIL_CALL(macro, ...) macro(__VA_ARGS__)
#define CAFMCP_DETAIL_FIRST(first, ...) first

// (name) or (name, "description")
#define CAFMCP_DETAIL_FIELD(type, spec)                                                                      \
  CAFMCP_DETAIL_CALL(CAFMCP_DETAIL_FIELD_I, type, CAFMCP_DETAIL_UNPAREN spec)
#define CAFMCP_DETAIL_FIELD_I(type, name, ...)                                                               \
  ::cafmcp::detail::make_field(#name, &type::name __VA_OPT__(, __VA_ARGS__))

// (value) or (value, "json-name"); without a name the enumerator's own.
#define CAFMCP_DETAIL_ENUMERATOR(type, spec)                                                                 \
  CAFMCP_DETAIL_CALL(CAFMCP_DETAIL_ENUMERATOR_I, type, CAFMCP_DETAIL_UNPAREN spec)
#define CAFMCP_DETAIL_ENUMERATOR_I(type, value, ...)                                                         \
  std::pair<type, std::string_view> { type::value, CAFMCP_DETAIL_FIRST(__VA_ARGS__ __VA_OPT__(, ) #value) }

/// Lists a struct's fields: CAFMCP_FIELDS(T, (field, "description"), ...).
/// Fields not listed are not part of its JSON. std::optional fields are the
/// optional ones; every other field is required.
#define CAFMCP_FIELDS(type, ...)                                                                             \
  [[maybe_unused]] constexpr auto cafmcp_fields(const type*) {                                               \
    return std::make_tuple(CAFMCP_DETAIL_FOR_EACH(CAFMCP_DETAIL_FIELD, type, __VA_ARGS__));                  \
  }                                                                                                          \
  static_assert(true, "CAFMCP_FIELDS is followed by a semicolon")

/// Names an enum's values in JSON: CAFMCP_ENUM(E, (value), (value, "name"), ...).
#define CAFMCP_ENUM(type, ...)                                                                               \
  [[maybe_unused]] constexpr auto cafmcp_enum_names(const type*) {                                           \
    return std::array{CAFMCP_DETAIL_FOR_EACH(CAFMCP_DETAIL_ENUMERATOR, type, __VA_ARGS__)};                  \
  }                                                                                                          \
  static_assert(true, "CAFMCP_ENUM is followed by a semicolon")

// Schemas derived from C++ types (json_schema.hpp) and conversions by the
// same mapping (json_conversion.hpp).
#include <gtest/gtest.h>

#include "cafmcp/json_conversion.hpp"

#include "foundation/schema_validator.hpp"

namespace cafmcp::test {
namespace {

enum class unit { celsius, fahrenheit };
CAFMCP_ENUM(unit, (celsius), (fahrenheit, "F"));

struct point {
  double x = 0;
  double y = 0;
};
CAFMCP_FIELDS(point, (x, "Across"), (y));

struct everything {
  bool flag = false;
  int count = 0;
  std::uint16_t small = 0;
  double ratio = 0;
  std::string name;
  unit u = unit::celsius;
  std::vector<int> numbers;
  std::map<std::string, std::string> labels;
  point where;
  std::vector<point> path;
  std::optional<std::string> note;
  json extra;
  int unlisted = 7; // not in CAFMCP_FIELDS: not part of the JSON
};
CAFMCP_FIELDS(everything, (flag, "A flag"), (count), (small), (ratio), (name), (u, "Unit"), (numbers),
              (labels), (where, "Where it is"), (path), (note, "Optional note"), (extra));

struct only_optional {
  std::optional<int> n;
};
CAFMCP_FIELDS(only_optional, (n));

struct nothing {};
CAFMCP_FIELDS(nothing); // a tool without arguments

TEST(TypedSchema, EachKindOfField) {
  EXPECT_EQ(json_schema_of<bool>(), (json{{"type", "boolean"}}));
  EXPECT_EQ(json_schema_of<int>(), (json{{"type", "integer"}}));
  EXPECT_EQ(json_schema_of<std::uint64_t>(), (json{{"type", "integer"}}));
  EXPECT_EQ(json_schema_of<float>(), (json{{"type", "number"}}));
  EXPECT_EQ(json_schema_of<std::string>(), (json{{"type", "string"}}));
  EXPECT_EQ(json_schema_of<json>(), json::object());
  EXPECT_EQ(json_schema_of<unit>(), (json{{"type", "string"}, {"enum", {"celsius", "F"}}}));
  EXPECT_EQ(json_schema_of<std::vector<std::string>>(),
            (json{{"type", "array"}, {"items", {{"type", "string"}}}}));
  EXPECT_EQ((json_schema_of<std::map<std::string, double>>()),
            (json{{"type", "object"}, {"additionalProperties", {{"type", "number"}}}}));
  EXPECT_EQ(json_schema_of<nothing>(),
            (json{{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}}));
  EXPECT_EQ(to_json_value(from_json_value<nothing>(json::object())), json::object());
}

TEST(TypedSchema, AStructListsItsFieldsRequiredUnlessOptional) {
  json point_schema = {
    {"type", "object"},
    {"properties", {{"x", {{"type", "number"}, {"description", "Across"}}}, {"y", {{"type", "number"}}}}},
    {"required", {"x", "y"}},
    {"additionalProperties", false}};
  EXPECT_EQ(json_schema_of<point>(), point_schema);
  json with_description = point_schema;
  with_description["description"] = "Where it is";
  json expected = {
    {"type", "object"},
    {"properties",
     {{"flag", {{"type", "boolean"}, {"description", "A flag"}}},
      {"count", {{"type", "integer"}}},
      {"small", {{"type", "integer"}}},
      {"ratio", {{"type", "number"}}},
      {"name", {{"type", "string"}}},
      {"u", {{"type", "string"}, {"enum", {"celsius", "F"}}, {"description", "Unit"}}},
      {"numbers", {{"type", "array"}, {"items", {{"type", "integer"}}}}},
      {"labels", {{"type", "object"}, {"additionalProperties", {{"type", "string"}}}}},
      {"where", with_description},
      {"path", {{"type", "array"}, {"items", point_schema}}},
      {"note", {{"type", "string"}, {"description", "Optional note"}}},
      {"extra", json::object()}}},
    // Declaration order, without the optional note.
    {"required",
     {"flag", "count", "small", "ratio", "name", "u", "numbers", "labels", "where", "path", "extra"}},
    {"additionalProperties", false}};
  EXPECT_EQ(json_schema_of<everything>(), expected);
  // No required fields: no "required" at all.
  EXPECT_EQ(json_schema_of<only_optional>(), (json{{"type", "object"},
                                                   {"properties", {{"n", {{"type", "integer"}}}}},
                                                   {"additionalProperties", false}}));
}

TEST(TypedSchema, TheDerivedSchemaCompilesAndAcceptsWhatConverts) {
  schema_validator v(json_schema_of<everything>());
  json value = {{"flag", true},
                {"count", -3},
                {"small", 65535},
                {"ratio", 0.5},
                {"name", "n"},
                {"u", "F"},
                {"numbers", {1, 2}},
                {"labels", {{"a/b", "c"}}},
                {"where", {{"x", 1}, {"y", 2.5}}},
                {"path", json::array()},
                {"extra", {{"any", {1, "thing"}}}}};
  EXPECT_EQ(v.validate(value), std::nullopt);
  auto e = from_json_value<everything>(value);
  EXPECT_TRUE(e.flag);
  EXPECT_EQ(e.count, -3);
  EXPECT_EQ(e.small, 65535);
  EXPECT_EQ(e.ratio, 0.5);
  EXPECT_EQ(e.name, "n");
  EXPECT_EQ(e.u, unit::fahrenheit);
  EXPECT_EQ(e.numbers, (std::vector<int>{1, 2}));
  EXPECT_EQ(e.labels.at("a/b"), "c");
  EXPECT_EQ(e.where.y, 2.5);
  EXPECT_TRUE(e.path.empty());
  EXPECT_FALSE(e.note);
  EXPECT_EQ(e.extra, value["extra"]);
  EXPECT_EQ(e.unlisted, 7);
  // And back: the same JSON (the empty optional left out).
  EXPECT_EQ(to_json_value(e), value);
  e.note = "hi";
  EXPECT_EQ(to_json_value(e)["note"], "hi");
  EXPECT_EQ(v.validate(to_json_value(e)), std::nullopt);

  auto misspelt = value;
  misspelt["nme"] = "x";
  EXPECT_NE(v.validate(misspelt), std::nullopt); // additionalProperties: false
}

TEST(TypedSchema, ConversionNamesWhereAndWhy) {
  auto error_of = [](const json& j) -> std::string {
    try {
      from_json_value<everything>(j);
    } catch (const conversion_error& e) {
      return e.what();
    }
    return "converted";
  };
  json ok = to_json_value(everything{});
  EXPECT_EQ(error_of(ok), "converted");
  auto with = [&](const json::json_pointer& p, json v) {
    json j = ok;
    j[p] = std::move(v);
    return error_of(j);
  };
  EXPECT_EQ(with("/count"_json_pointer, 1e12), "/count: 1000000000000.0 does not fit");
  EXPECT_EQ(with("/count"_json_pointer, 4294967296LL), "/count: 4294967296 does not fit");
  EXPECT_EQ(with("/count"_json_pointer, 2.0), "converted"); // 2.0 is an integer to JSON Schema
  EXPECT_EQ(with("/count"_json_pointer, 2.5), "/count: expected integer, got 2.5");
  EXPECT_EQ(with("/small"_json_pointer, -1), "/small: -1 is negative; expected an unsigned integer");
  EXPECT_EQ(with("/small"_json_pointer, 65536), "/small: 65536 does not fit");
  EXPECT_EQ(with("/u"_json_pointer, "kelvin"), "/u: \"kelvin\" is not one of the allowed names");
  EXPECT_EQ(with("/numbers"_json_pointer, {1, "2"}), "/numbers/1: expected integer, got string");
  EXPECT_EQ(with("/labels"_json_pointer, {{"a/b", 1}}), "/labels/a~1b: expected string, got number");
  EXPECT_EQ(with("/where"_json_pointer, json{{"x", 1}}), "/where: missing required property y");
  EXPECT_EQ(error_of(json::array()), "/: expected object, got array");
}

TEST(TypedSchema, DescribedTypesWorkWithNlohmannConversions) {
  point p{1, 2};
  json j = p;
  EXPECT_EQ(j, (json{{"x", 1.0}, {"y", 2.0}}));
  EXPECT_EQ(j.get<point>().y, 2);
  json u = unit::fahrenheit;
  EXPECT_EQ(u, "F");
  EXPECT_EQ(u.get<unit>(), unit::fahrenheit);
}

} // namespace
} // namespace cafmcp::test

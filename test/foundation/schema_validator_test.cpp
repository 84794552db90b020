// Tool schemas: compiled once, 2020-12 documents accepted, violations named.
#include <gtest/gtest.h>

#include "foundation/schema_validator.hpp"

namespace cafmcp {
namespace {

TEST(SchemaValidator, NamesMissingAndMistypedArguments) {
  schema_validator v(json{{"type", "object"},
                          {"properties", {{"city", {{"type", "string"}}}, {"n", {{"type", "integer"}}}}},
                          {"required", {"city"}}});
  EXPECT_FALSE(v.validate({{"city", "Oslo"}, {"n", 3}}));
  auto missing = v.validate(json::object());
  ASSERT_TRUE(missing);
  EXPECT_NE(missing->find("city"), std::string::npos);
  auto mistyped = v.validate({{"city", "Oslo"}, {"n", 2.5}});
  ASSERT_TRUE(mistyped);
  EXPECT_NE(mistyped->find("n"), std::string::npos);
}

TEST(SchemaValidator, AcceptsTheConformanceSuites2020_12Schema) {
  auto schema = json::parse(R"({
    "$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
    "$defs":{"address":{"$anchor":"address","type":"object",
             "properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
    "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},
    "additionalProperties":false,
    "allOf":[{"if":{"properties":{"name":{"const":"x"}}},"then":{"required":["address"]}}]})");
  schema_validator v(schema);
  EXPECT_FALSE(v.validate({{"name", "y"}}));
  EXPECT_FALSE(v.validate({{"name", "x"}, {"address", {{"city", "Rome"}}}}));
  EXPECT_TRUE(v.validate({{"name", "x"}}));                            // if/then
  EXPECT_TRUE(v.validate({{"name", "y"}, {"other", 1}}));              // additionalProperties
  EXPECT_TRUE(v.validate({{"name", "y"}, {"address", {{"city", 5}}}})); // $ref into $defs
}

TEST(SchemaValidator, RefusesANonObjectSchema) {
  EXPECT_THROW(schema_validator(json("string")), std::invalid_argument);
}

} // namespace
} // namespace cafmcp

// Tool schemas: compiled once, 2020-12 documents accepted, violations named,
// and broken schemas refused when registered instead of crashing later.
#include <gtest/gtest.h>

#include "foundation/schema_validator.hpp"

namespace cafmcp {
namespace {

bool mentions(const std::optional<std::string>& text, const std::string& part) {
  return text && text->find(part) != std::string::npos;
}

const json conformance_schema = json::parse(R"({
  "$schema":"https://json-schema.org/draft/2020-12/schema","type":"object",
  "$defs":{"address":{"$anchor":"address","type":"object",
           "properties":{"street":{"type":"string"},"city":{"type":"string"}}}},
  "properties":{"name":{"type":"string"},"address":{"$ref":"#/$defs/address"}},
  "additionalProperties":false,
  "allOf":[{"if":{"properties":{"name":{"const":"x"}}},"then":{"required":["address"]}}]})");

TEST(SchemaValidator, AcceptsValidArguments) {
  schema_validator v(json{{"type", "object"},
                          {"properties", {{"city", {{"type", "string"}}}, {"n", {{"type", "integer"}}}}},
                          {"required", {"city"}}});
  EXPECT_EQ(v.validate({{"city", "Oslo"}, {"n", 3}}), std::nullopt);
  EXPECT_EQ(v.validate({{"city", "Oslo"}}), std::nullopt);
}

TEST(SchemaValidator, NamesAMissingRequiredArgument) {
  schema_validator v(
    json{{"type", "object"}, {"properties", {{"city", {{"type", "string"}}}}}, {"required", {"city"}}});
  auto missing = v.validate(json::object());
  ASSERT_TRUE(missing);
  EXPECT_EQ(*missing, "/: missing required property 'city'");
}

TEST(SchemaValidator, NamesAMistypedArgumentWithItsPath) {
  schema_validator v(json{{"type", "object"},
                          {"properties", {{"age", {{"type", "integer"}}}, {"name", {{"type", "string"}}}}}});
  EXPECT_EQ(v.validate({{"age", "ten"}}), "/age: expected integer, got string");
  EXPECT_EQ(v.validate({{"age", 2.5}}), "/age: expected integer, got number");
  EXPECT_EQ(v.validate({{"name", 7}}), "/name: expected string, got integer");
}

TEST(SchemaValidator, ReportsEveryViolation) {
  schema_validator v(json{{"type", "object"},
                          {"properties", {{"a", {{"type", "integer"}}}, {"b", {{"type", "boolean"}}}}},
                          {"required", {"c"}}});
  auto all = v.validate({{"a", "x"}, {"b", 1}});
  EXPECT_TRUE(mentions(all, "/a: expected integer, got string")) << *all;
  EXPECT_TRUE(mentions(all, "/b: expected boolean, got integer")) << *all;
  EXPECT_TRUE(mentions(all, "/: missing required property 'c'")) << *all;
}

TEST(SchemaValidator, PathsReachIntoArraysAndNestedObjects) {
  schema_validator v(json::parse(R"({"type":"object","properties":{"items":{"type":"array",
    "items":{"type":"object","properties":{"qty":{"type":"integer","minimum":1}}}}}})"));
  EXPECT_EQ(v.validate(json::parse(R"({"items":[{"qty":1},{"qty":"2"}]})")),
            "/items/1/qty: expected integer, got string");
  auto low = v.validate(json::parse(R"({"items":[{"qty":0}]})"));
  ASSERT_TRUE(low);
  EXPECT_EQ(*low, "/items/0/qty: expected number greater than or equal to 1");
}

TEST(SchemaValidator, IntegerAcceptsWholeFloatsButNotFractions) {
  schema_validator v(json{{"type", "integer"}});
  EXPECT_EQ(v.validate(json::parse("3.0")), std::nullopt);
  EXPECT_EQ(v.validate(3), std::nullopt);
  EXPECT_TRUE(v.validate(3.5));
  schema_validator number(json{{"type", "number"}});
  EXPECT_EQ(number.validate(3), std::nullopt);
  EXPECT_EQ(number.validate(3.5), std::nullopt);
  EXPECT_TRUE(number.validate("3"));
}

TEST(SchemaValidator, EnumAndConstNameTheAllowedValues) {
  schema_validator e(json{{"enum", {"red", "green"}}});
  EXPECT_EQ(e.validate("green"), std::nullopt);
  EXPECT_EQ(e.validate("blue"), R"(/: must be one of ["red","green"])");
  schema_validator c(json{{"const", 42}});
  EXPECT_EQ(c.validate(42), std::nullopt);
  EXPECT_EQ(c.validate(41), "/: must be 42");
}

TEST(SchemaValidator, CompositionKeywords) {
  schema_validator any(json::parse(R"({"anyOf":[{"type":"string"},{"type":"integer"}]})"));
  EXPECT_EQ(any.validate("s"), std::nullopt);
  EXPECT_EQ(any.validate(1), std::nullopt);
  EXPECT_TRUE(mentions(any.validate(true), "anyOf"));
  schema_validator one(json::parse(R"({"oneOf":[{"type":"integer"},{"minimum":0}]})"));
  EXPECT_EQ(one.validate(-1), std::nullopt);
  EXPECT_TRUE(mentions(one.validate(1), "more than one"));
  schema_validator all(json::parse(R"({"allOf":[{"type":"string"},{"minLength":3}]})"));
  EXPECT_EQ(all.validate("abc"), std::nullopt);
  EXPECT_EQ(all.validate("ab"), "/: string should be no fewer than 3 characters in length");
  schema_validator neg(json::parse(R"({"not":{"type":"null"}})"));
  EXPECT_TRUE(neg.validate(nullptr));
  EXPECT_EQ(neg.validate(0), std::nullopt);
}

TEST(SchemaValidator, IfThenElse) {
  schema_validator v(json::parse(R"({"type":"object",
    "if":{"properties":{"kind":{"const":"circle"}},"required":["kind"]},
    "then":{"required":["radius"]},"else":{"required":["width"]}})"));
  EXPECT_EQ(v.validate({{"kind", "circle"}, {"radius", 1}}), std::nullopt);
  EXPECT_EQ(v.validate({{"kind", "circle"}}), "/: missing required property 'radius'");
  EXPECT_EQ(v.validate({{"kind", "square"}}), "/: missing required property 'width'");
}

TEST(SchemaValidator, AdditionalPropertiesFalseNamesTheIntruder) {
  schema_validator v(
    json::parse(R"({"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false})"));
  EXPECT_EQ(v.validate({{"a", "x"}}), std::nullopt);
  EXPECT_EQ(v.validate({{"a", "x"}, {"b", 1}}), "/: unexpected property 'b'");
  schema_validator none(json::parse(R"({"type":"object","additionalProperties":false})"));
  EXPECT_EQ(none.validate(json::object()), std::nullopt);
  EXPECT_TRUE(none.validate({{"x", 1}}));
}

TEST(SchemaValidator, AcceptsTheConformanceSuites2020_12Schema) {
  schema_validator v(conformance_schema);
  EXPECT_EQ(v.validate({{"name", "y"}}), std::nullopt);
  EXPECT_EQ(v.validate({{"name", "x"}, {"address", {{"city", "Rome"}}}}), std::nullopt);
  // `if` holds vacuously for an object without `name`, so `then` applies.
  EXPECT_EQ(v.validate(json::object()), "/: missing required property 'address'");
}

TEST(SchemaValidator, ConformanceSchemaIfThenRequiresAddress) {
  schema_validator v(conformance_schema);
  EXPECT_EQ(v.validate({{"name", "x"}}), "/: missing required property 'address'");
}

TEST(SchemaValidator, ConformanceSchemaRefusesExtraProperties) {
  schema_validator v(conformance_schema);
  EXPECT_EQ(v.validate({{"name", "y"}, {"other", 1}}), "/: unexpected property 'other'");
}

TEST(SchemaValidator, ConformanceSchemaFollowsRefIntoDefs) {
  schema_validator v(conformance_schema);
  EXPECT_EQ(v.validate({{"name", "y"}, {"address", {{"city", 5}}}}),
            "/address/city: expected string, got integer");
  EXPECT_EQ(v.validate({{"name", 5}}), "/name: expected string, got integer");
}

TEST(SchemaValidator, AnchorReferencesResolve) {
  schema_validator v(json::parse(R"({"$defs":{"pos":{"$anchor":"positive","type":"integer","minimum":1}},
    "type":"object","properties":{"n":{"$ref":"#positive"}}})"));
  EXPECT_EQ(v.validate({{"n", 2}}), std::nullopt);
  EXPECT_TRUE(mentions(v.validate({{"n", 0}}), "/n:"));
}

TEST(SchemaValidator, RefSiblingsApplyAsIn2020_12) {
  schema_validator v(json::parse(R"({"$defs":{"s":{"type":"string"}},
    "properties":{"code":{"$ref":"#/$defs/s","maxLength":2}}})"));
  EXPECT_EQ(v.validate({{"code", "ab"}}), std::nullopt);
  EXPECT_TRUE(mentions(v.validate({{"code", "abc"}}), "/code: string should be no more than 2"));
  EXPECT_TRUE(mentions(v.validate({{"code", 1}}), "/code:"));
}

TEST(SchemaValidator, RecursiveSchemasThroughRootRef) {
  schema_validator v(json::parse(R"({"type":"object","properties":{
    "value":{"type":"integer"},"children":{"type":"array","items":{"$ref":"#"}}}})"));
  EXPECT_EQ(v.validate(json::parse(R"({"value":1,"children":[{"value":2,"children":[]}]})")), std::nullopt);
  EXPECT_EQ(v.validate(json::parse(R"({"children":[{"children":[{"value":"x"}]}]})")),
            "/children/0/children/0/value: expected integer, got string");
}

TEST(SchemaValidator, RootIdPrefixedRefsAreLocal) {
  schema_validator v(json::parse(R"({"$id":"https://example.com/tool.json",
    "$defs":{"s":{"type":"string"}},"properties":{"a":{"$ref":"https://example.com/tool.json#/$defs/s"}}})"));
  EXPECT_EQ(v.validate({{"a", "x"}}), std::nullopt);
  EXPECT_TRUE(v.validate({{"a", 1}}));
}

TEST(SchemaValidator, PrefixItemsAndItemsFrom2020_12) {
  schema_validator v(
    json::parse(R"({"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false})"));
  EXPECT_EQ(v.validate(json::parse(R"(["a",1])")), std::nullopt);
  EXPECT_TRUE(mentions(v.validate(json::parse(R"(["a","b"])")), "/1: expected integer"));
  EXPECT_TRUE(v.validate(json::parse(R"(["a",1,2])")));
}

TEST(SchemaValidator, DependentRequiredAndDependentSchemas) {
  schema_validator req(json::parse(R"({"dependentRequired":{"card":["cvv"]}})"));
  EXPECT_EQ(req.validate({{"name", "x"}}), std::nullopt);
  EXPECT_EQ(req.validate({{"card", 1}, {"cvv", 2}}), std::nullopt);
  EXPECT_TRUE(req.validate({{"card", 1}}));
  schema_validator sch(json::parse(R"({"dependentSchemas":{"card":{"required":["cvv"]}}})"));
  EXPECT_EQ(sch.validate({{"card", 1}, {"cvv", 2}}), std::nullopt);
  EXPECT_TRUE(sch.validate({{"card", 1}}));
}

TEST(SchemaValidator, UnevaluatedPropertiesFalseWithoutApplicators) {
  schema_validator v(json::parse(R"({"type":"object","properties":{"a":{}},"unevaluatedProperties":false})"));
  EXPECT_EQ(v.validate({{"a", 1}}), std::nullopt);
  EXPECT_EQ(v.validate({{"b", 1}}), "/: unexpected property 'b'");
}

TEST(SchemaValidator, FormatIsAnAnnotationIn2020_12) {
  schema_validator v(json{{"type", "string"}, {"format", "date-time"}});
  EXPECT_EQ(v.validate("not a date"), std::nullopt);
  EXPECT_TRUE(v.validate(5));
}

TEST(SchemaValidator, Draft07SchemasKeepTheirOwnRules) {
  // In draft 7 a $ref replaces its siblings.
  schema_validator v(json::parse(R"({"$schema":"http://json-schema.org/draft-07/schema#",
    "definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/s","maxLength":1}}})"));
  EXPECT_EQ(v.validate({{"a", "long"}}), std::nullopt);
  EXPECT_TRUE(v.validate({{"a", 1}}));
}

TEST(SchemaValidator, BooleanSchemas) {
  EXPECT_EQ(schema_validator(json(true)).validate({{"any", "thing"}}), std::nullopt);
  EXPECT_TRUE(schema_validator(json(false)).validate(1));
  schema_validator v(json::parse(R"({"properties":{"never":false}})"));
  EXPECT_EQ(v.validate({{"other", 1}}), std::nullopt);
  EXPECT_EQ(v.validate({{"never", 1}}), "/never: not allowed by the schema");
  schema_validator tuple(json::parse(R"({"items":[true,false]})"));
  EXPECT_EQ(tuple.validate(json::parse("[1,2]")), "/1: not allowed by the schema");
}

TEST(SchemaValidator, PathsEscapeSlashAndTilde) {
  schema_validator v(json::parse(R"({"properties":{"a/b~c":{"type":"string"}}})"));
  EXPECT_EQ(v.validate({{"a/b~c", 1}}), "/a~1b~0c: expected string, got integer");
}

TEST(SchemaValidator, RefusesANonObjectSchema) {
  EXPECT_THROW(schema_validator(json("string")), std::invalid_argument);
  EXPECT_THROW(schema_validator(json(3)), std::invalid_argument);
  EXPECT_THROW(schema_validator(json::array()), std::invalid_argument);
}

TEST(SchemaValidator, RefusesInvalidSchemasWithAClearMessage) {
  auto message_of = [](const json& schema) -> std::string {
    try {
      schema_validator v(schema);
    } catch (const std::invalid_argument& e) {
      return e.what();
    }
    return "(accepted)";
  };
  EXPECT_NE(message_of({{"type", "bogus"}}).find("bogus"), std::string::npos);
  EXPECT_NE(message_of({{"required", "x"}}), "(accepted)");
  EXPECT_NE(message_of({{"$ref", "#/$defs/missing"}}).find("#/$defs/missing"), std::string::npos);
  EXPECT_NE(message_of({{"$ref", "#nowhere"}}).find("$anchor"), std::string::npos);
  EXPECT_NE(message_of({{"$ref", "https://other.example/s.json"}}).find("remote"), std::string::npos);
  EXPECT_NE(message_of({{"pattern", "(unclosed"}}).find("regular expression"), std::string::npos);
  EXPECT_NE(message_of({{"patternProperties", {{"[", true}}}}).find("regular expression"), std::string::npos);
  EXPECT_NE(message_of({{"not", 5}}), "(accepted)");
}

// dependentSchemas/dependentRequired merge into draft 7's `dependencies`:
// when that is not an object, or a name list is not an array, the schema is
// refused; it was a json::type_error out of the constructor (a server's
// tool schema reaches the client's validator). Inputs in
// fuzz/corpus/schema_dialect/dependencies_*.
TEST(SchemaValidator, RefusesDependentKeywordsItCannotMerge) {
  for (const char* text : {R"({"dependencies":1,"dependentRequired":{"a":["b"]}})",
                           R"({"dependencies":1,"dependentSchemas":{"a":{}}})",
                           R"({"dependencies":{"a":{"required":5}},"dependentRequired":{"a":["b"]}})",
                           R"({"dependentRequired":{"a":"b"}})"})
    EXPECT_THROW(schema_validator(json::parse(text)), std::invalid_argument) << text;
  // Both forms for one property still merge.
  schema_validator both(
    json::parse(R"({"dependencies":{"a":{"required":["c"]}},"dependentRequired":{"a":["b"]}})"));
  EXPECT_TRUE(both.validate(json::parse(R"({"a":1,"b":2})")).has_value());
  EXPECT_FALSE(both.validate(json::parse(R"({"a":1,"b":2,"c":3})")).has_value());
}

TEST(SchemaValidator, RefusesReferenceCyclesThatWouldNeverEnd) {
  EXPECT_THROW(schema_validator(json::parse(
                 R"({"properties":{"a":{"$ref":"#/properties/b"},"b":{"$ref":"#/properties/a"}}})")),
               std::invalid_argument);
  EXPECT_THROW(schema_validator(json::parse(R"({"allOf":[{"$ref":"#"}]})")), std::invalid_argument);
  EXPECT_THROW(schema_validator(json::parse(R"({"$ref":"#"})")), std::invalid_argument);
}

TEST(SchemaValidator, PatternsValidate) {
  schema_validator v(json::parse(R"({"type":"string","pattern":"^[a-z]+$"})"));
  EXPECT_EQ(v.validate("abc"), std::nullopt);
  EXPECT_EQ(v.validate("ABC"), "/: failed to match regex specified by 'pattern' constraint");
  // ECMA-262 without flags: "^" and "$" are the string's ends, not a line's,
  // and "." takes no line break.
  EXPECT_TRUE(v.validate("abc\nDEF"));
  EXPECT_TRUE(v.validate("DEF\nabc"));
  schema_validator dot(json::parse(R"({"type":"string","pattern":"^a.b$"})"));
  EXPECT_EQ(dot.validate("axb"), std::nullopt);
  EXPECT_TRUE(dot.validate("a\nb"));
  schema_validator unanchored(json::parse(R"({"type":"string","pattern":"b+"})")); // searches
  EXPECT_EQ(unanchored.validate("abba"), std::nullopt);
  EXPECT_TRUE(v.validate("abc\n")); // "$" is the end, not before a last line break
  // "\uXXXX" is a code unit, as in ECMA-262 (to Boost, "\u" is a class).
  schema_validator ascii(json::parse(R"({"type":"string","pattern":"^[\\u0020-\\u007E]*$"})"));
  EXPECT_EQ(ascii.validate("plain text"), std::nullopt);
  EXPECT_TRUE(ascii.validate("tab\there"));
  schema_validator letter(json::parse(R"({"type":"string","pattern":"^\\u0041\\\\u0041$"})"));
  EXPECT_EQ(letter.validate("A\\u0041"), std::nullopt); // the second one is escaped: literal text
}

// valijson matched `pattern` and the draft-7 formats with std::regex, which
// recurses once per character a quantifier takes: a 50 KB string against
// "^[a-z]+$" overflowed the stack and killed the process (a tools/call
// argument is enough). Boost.Regex matches them now (ecma_pattern.hpp):
// long strings are checked, and what passes its bounds is a violation.
// Found by fuzz/schema_dialect (16 processes, 27 November).
TEST(SchemaValidator, LongStringsAreMatchedWithoutExhaustingTheStack) {
  const std::string megabyte(1 << 20, 'a');
  schema_validator letters(json::parse(R"({"type":"string","pattern":"^[a-z]+$"})"));
  EXPECT_EQ(letters.validate(megabyte), std::nullopt);
  EXPECT_EQ(letters.validate(megabyte + "A"), "/: failed to match regex specified by 'pattern' constraint");

  schema_validator alternation(json::parse(R"({"type":"string","pattern":"^(a|b)*$"})"));
  EXPECT_EQ(alternation.validate("abba"), std::nullopt);
  auto refused = alternation.validate(megabyte);
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->find("too long or pattern too complex"), std::string::npos) << *refused;

  schema_validator date(json::parse(R"({"$schema":"http://json-schema.org/draft-07/schema#","format":"date"})"));
  EXPECT_EQ(date.validate("2026-11-27"), std::nullopt);
  EXPECT_EQ(date.validate("2026-02-30"), "/: string should be a valid date");
  EXPECT_EQ(date.validate("2026-13-01"), "/: string should be a valid date");
  EXPECT_EQ(date.validate(std::string(1 << 20, '1') + "-01-01"), std::nullopt); // a long year is a year
  schema_validator date_time(
    json::parse(R"({"$schema":"http://json-schema.org/draft-07/schema#","format":"date-time"})"));
  EXPECT_EQ(date_time.validate("2026-11-27T13:40:00Z"), std::nullopt);
  EXPECT_EQ(date_time.validate("2026-11-31T13:40:00Z"), "/: string should be a valid date-time");
  EXPECT_EQ(date_time.validate(5), std::nullopt); // format speaks of strings only

}

// patternProperties went to valijson's std::regex: a valid pattern that
// backtracks ("^(a+)+$") hung the validator on a 30-character key, and a
// long key exhausted the stack. Boost.Regex matches keys now
// (valijson_pattern_properties.hpp), with the same bounds as `pattern`.
TEST(SchemaValidator, PatternPropertiesAreMatchedWithBoundedWork) {
  schema_validator keys(json::parse(R"({"patternProperties":{"^[a-z]+$":{"type":"integer"}}})"));
  EXPECT_EQ(keys.validate({{"abc", 1}}), std::nullopt);
  EXPECT_EQ(keys.validate({{"abc", "x"}}), "/abc: wrong type, got string");
  EXPECT_EQ(keys.validate({{"ABC", "x"}}), std::nullopt); // no pattern names it: anything goes
  const std::string megabyte(1 << 20, 'a');
  EXPECT_EQ(keys.validate({{megabyte, 1}}), std::nullopt);
  EXPECT_EQ(keys.validate({{megabyte, "x"}}), "/" + megabyte + ": wrong type, got string");

  schema_validator hostile(json::parse(R"({"patternProperties":{"^(a+)+$":{"type":"integer"}}})"));
  EXPECT_EQ(hostile.validate({{"aaaa", 1}}), std::nullopt);
  EXPECT_TRUE(hostile.validate({{"aaaa", "x"}}));
  auto refused = hostile.validate({{std::string(40, 'a') + "!", 1}});
  ASSERT_TRUE(refused);
  EXPECT_NE(refused->find("too long or pattern too complex"), std::string::npos) << *refused;

  // With properties and additionalProperties, as JSON Schema reads them.
  schema_validator mixed(json::parse(R"({"properties":{"id":{"type":"string"}},
    "patternProperties":{"^x-":{"type":"integer"},"^x-n":{"minimum":10}},
    "additionalProperties":false})"));
  EXPECT_EQ(mixed.validate({{"id", "a"}, {"x-a", 1}, {"x-n", 11}}), std::nullopt);
  EXPECT_TRUE(mixed.validate({{"x-n", 5}}));   // both patterns apply
  EXPECT_TRUE(mixed.validate({{"x-a", "s"}})); // the pattern's schema
  EXPECT_TRUE(mixed.validate({{"id", 1}}));    // the property's
  auto extra = mixed.validate({{"id", "a"}, {"other", 1}});
  ASSERT_TRUE(extra);
  EXPECT_NE(extra->find("'other'"), std::string::npos) << *extra;
  schema_validator rest(json::parse(R"({"patternProperties":{"^x-":true},"additionalProperties":{"type":"string"}})"));
  EXPECT_EQ(rest.validate({{"x-a", 1}, {"b", "s"}}), std::nullopt);
  EXPECT_TRUE(rest.validate({{"x-a", 1}, {"b", 2}}));
}

// Messages name properties, from the instance or the schema; tidying the
// numbers in them must not recurse per character either (std::regex did: a
// schema's dependency named by a megabyte of digits).
TEST(SchemaValidator, LongPropertyNamesInMessagesAreSafe) {
  const auto digits = std::string(1 << 20, '1');
  schema_validator needs(json{{"dependencies", {{"a", {digits + ".500"}}}}});
  auto refused = needs.validate({{"a", 1}});
  ASSERT_TRUE(refused);
  EXPECT_EQ(*refused, "/: missing dependency '" + digits + ".5'");
  schema_validator closed(json::parse(R"({"additionalProperties":false})"));
  EXPECT_EQ(closed.validate({{digits, 1}}), "/: unexpected property '" + digits + "'");
  schema_validator minimum(json::parse(R"({"type":"number","minimum":2.5})"));
  EXPECT_EQ(minimum.validate(2), "/: expected number greater than or equal to 2.5");
}

// Patterns follow ECMA-262 wherever they appear: a quantifier after a
// quantifier is a SyntaxError there (std::regex nested them and backtracked
// for minutes on the key "x-$a": input timeout-2d4f5fd1...); counts and
// back-references are read by Boost.Regex without expanding copies or
// overflowing (crash-f3b7eb85...).
TEST(SchemaValidator, RefusesPatternsECMAScriptRefuses) {
  for (const char* keyword : {"pattern", "patternProperties"}) {
    auto schema = [&](const std::string& p) {
      return std::string(keyword) == "pattern" ? json{{"pattern", p}} : json{{"patternProperties", {{p, true}}}};
    };
    for (const char* p : {"^x+++*+++]+++-", "a++", "a*{2}", "a{2}*", "a+??", "[", "\\1111111111111111111"})
      EXPECT_THROW(schema_validator{schema(p)}, std::invalid_argument) << keyword << " " << p;
    for (const char* p : {"a+?", "a{2,3}?", "(?:ab)+", "\\++", "[+*]+", "[{99999}]", "a{1001}", "(a{400}){400}",
                          "^[a-z]{1,100}-[0-9]{2,4}$"})
      EXPECT_NO_THROW(schema_validator{schema(p)}) << keyword << " " << p;
    EXPECT_THROW(schema_validator{schema(std::string(5000, 'a'))}, std::invalid_argument) << keyword;
  }
  schema_validator big_count(json{{"type", "string"}, {"pattern", "^a{1,5000}$"}});
  EXPECT_EQ(big_count.validate(std::string(5000, 'a')), std::nullopt);
  EXPECT_TRUE(big_count.validate(std::string(5001, 'a')));
}

TEST(SchemaValidator, CompiledOnceUsableManyTimes) {
  schema_validator v(conformance_schema);
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(v.validate({{"name", "y"}}), std::nullopt);
    EXPECT_TRUE(v.validate({{"name", 1}}));
  }
}

} // namespace
} // namespace cafmcp

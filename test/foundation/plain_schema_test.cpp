// The quick check for plain tool schemas (foundation/plain_schema.hpp):
// which schemas it takes, and that its verdict is valijson's on thousands of
// generated values. valijson's own verdict comes from the same schema
// wrapped in a one-member `allOf`, which means the same and is not plain.
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "foundation/plain_schema.hpp"
#include "foundation/schema_validator.hpp"

namespace cafmcp {
namespace {

bool plain(const char* schema) { return plain_schema::from(json::parse(schema)).has_value(); }

TEST(PlainSchema, TakesTheShapeToolInputsHave) {
  EXPECT_TRUE(plain(R"({"type":"object","properties":{"uri":{"type":"string","description":"which"},
    "text":{"type":"string"}},"required":["uri","text"],"additionalProperties":false})"));
  EXPECT_TRUE(plain(R"({"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},
    "mode":{"enum":["a","b"],"default":"a"},"opts":{"type":"object","properties":{"n":{"type":"integer"}}}}})"));
  EXPECT_TRUE(plain("true"));
  EXPECT_TRUE(plain("false"));
  EXPECT_TRUE(plain("{}"));
}

TEST(PlainSchema, LeavesEveryOtherKeywordToValijson) {
  for (const char* schema : {
         R"({"type":"object","properties":{"s":{"type":"string","minLength":1}}})",
         R"({"type":"object","properties":{"s":{"type":"string","format":"date"}}})",
         R"({"type":["string","null"]})",
         R"({"type":"strings"})",
         R"({"enum":[1,2]})",
         R"({"items":[{"type":"string"}]})",
         R"({"allOf":[{"type":"object"}]})",
         R"({"$ref":"#/$defs/a","$defs":{"a":{"type":"string"}}})",
         R"({"type":"object","patternProperties":{"^x":{"type":"string"}}})",
         R"({"type":"object","properties":{"n":{"type":"integer","minimum":0}}})",
         R"({"type":"object","required":"n"})",
         R"([])",
       })
    EXPECT_FALSE(plain(schema)) << schema;
}

// Values of every type, objects with the keys the schemas below name (and
// some they do not), nested a little; the same sequence on every run.
class values {
public:
  json next(int depth = 0) {
    switch (pick(depth < 2 ? 9 : 6)) {
      case 0: return nullptr;
      case 1: return pick(2) == 0;
      case 2: return static_cast<int>(pick(7)) - 3;
      case 3: return pick(2) ? 2.5 : 2.0; // 2.0: an integer to JSON Schema, not as written
      case 4:
      case 5: return strings[pick(std::size(strings))];
      case 6:
      case 7: {
        json o = json::object();
        for (auto n = pick(4); n > 0; --n)
          o[keys[pick(std::size(keys))]] = next(depth + 1);
        return o;
      }
      default: {
        json a = json::array();
        for (auto n = pick(3); n > 0; --n)
          a.push_back(next(depth + 1));
        return a;
      }
    }
  }

private:
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng); }
  static constexpr const char* strings[] = {"", "a", "b", "file:///x"};
  static constexpr const char* keys[] = {"uri",  "text", "n",    "x",    "flag",
                                         "none", "tags", "mode", "opts", "extra"};
  std::mt19937 rng{20261129};
};

TEST(PlainSchema, AgreesWithValijsonOnGeneratedValues) {
  const char* schemas[] = {
    R"({"type":"object","properties":{"uri":{"type":"string"},"text":{"type":"string"}},"required":["uri","text"]})",
    R"({"type":"object","properties":{"n":{"type":"integer"},"x":{"type":"number"},"flag":{"type":"boolean"},
      "none":{"type":"null"}},"additionalProperties":false})",
    R"({"type":"object","properties":{"tags":{"type":"array","items":{"type":"string"}},"mode":{"enum":["a","b"]}},
      "additionalProperties":{"type":"integer"}})",
    R"({"type":"object","properties":{"opts":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"],
      "additionalProperties":false}}})",
    R"({"properties":{"text":{"type":"string"}},"items":{"type":"object"}})",
    R"({"type":"array","items":{"enum":["a","b"]}})",
    R"({"type":"array","items":false})",
    R"({"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"x":{"type":"number"}}})",
    R"({"$schema":"http://json-schema.org/draft-04/schema#","type":"object","required":["n"]})",
  };
  for (const char* text : schemas) {
    auto schema = json::parse(text);
    // As schema_validator compiles it (its `$schema` read and dropped).
    schema_validator quick(schema);
    json wrapped = {{"allOf", json::array({schema})}};
    if (schema.contains("$schema")) {
      wrapped["$schema"] = schema["$schema"];
      wrapped["allOf"][0].erase("$schema");
    }
    ASSERT_FALSE(plain_schema::from(wrapped).has_value());
    schema_validator full(wrapped);
    auto bare = schema;
    bare.erase("$schema");
    auto fast = plain_schema::from(bare);
    ASSERT_TRUE(fast) << text;
    values gen;
    int accepted = 0, refused = 0;
    for (int i = 0; i < 4000; ++i) {
      auto v = gen.next();
      bool valid = !full.validate(v);
      if (fast->accepts(v)) {
        ASSERT_TRUE(valid) << text << "\n" << v.dump(); // its yes is always right
        ++accepted;
      } else {
        refused += !valid;
      }
      // And the validator, quick check first, says what valijson says.
      ASSERT_EQ(!quick.validate(v), valid) << text << "\n" << v.dump();
    }
    EXPECT_GT(accepted, 0) << text;
    EXPECT_GT(refused, 0) << text;
  }
}

TEST(PlainSchema, ARefusalIsOnlyAQuestionForValijson) {
  // 2.0 is an integer to JSON Schema: not accepted here as written, and
  // valid all the same.
  auto schema = json::parse(R"({"type":"object","properties":{"n":{"type":"integer"}}})");
  auto fast = plain_schema::from(schema);
  ASSERT_TRUE(fast);
  json two = {{"n", 2.0}};
  EXPECT_FALSE(fast->accepts(two));
  EXPECT_EQ(schema_validator(schema).validate(two), std::nullopt);
  EXPECT_TRUE(fast->accepts(json{{"n", 2}}));
  EXPECT_NE(schema_validator(schema).validate(json{{"n", "2"}}), std::nullopt);
}

} // namespace
} // namespace cafmcp

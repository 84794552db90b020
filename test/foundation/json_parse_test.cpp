// parse_json(text) is json::parse(text): the same value with the same
// types, and the same exceptions, whichever parser read the text.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "foundation/json_parse.hpp"

namespace cafmcp {
namespace {

std::string thrown_by(std::string_view text, json (*parse)(std::string_view)) {
  try {
    parse(text);
  } catch (const json::exception& e) {
    return e.what();
  }
  return "nothing";
}

json reference(std::string_view text) { return json::parse(text); }

TEST(JsonParse, ReadsWhatNlohmannReads) {
  for (std::string_view text :
       {R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{}}})",
        R"([1, -1, 0.5, -0.5, -0e3, 1e-400, 9223372036854775808, -9223372036854775808, true, false, null])",
        R"({"k":"h\u00e9llo \ud83d\ude00 \"\\\/\b\f\n\r\t","\u0000":""})", "  \"just a string\"  ",
        "[[[[]]]]", "\xef\xbb\xbf{\"after a byte order mark\":1}", "18446744073709551616",
        "-9223372036854775809"}) {
    auto fast = parse_json(text);
    EXPECT_EQ(fast, json::parse(text)) << text;
    EXPECT_EQ(fast.dump(), json::parse(text).dump()) << text;
  }
}

TEST(JsonParse, TypesIntegersAsNlohmannDoes) {
  // Non-negative integers are unsigned, negative ones signed, and `-0` is
  // the signed 0: simdjson reads `0` and `-0` alike, so which one the text
  // held must not be lost.
  EXPECT_TRUE(parse_json("0").is_number_unsigned());
  EXPECT_TRUE(parse_json("7").is_number_unsigned());
  EXPECT_TRUE(parse_json("-7").is_number_integer());
  EXPECT_FALSE(parse_json("-7").is_number_unsigned());
  EXPECT_FALSE(parse_json("-0").is_number_unsigned());
  EXPECT_FALSE(parse_json(R"({"a":[1,-0]})")["a"][1].is_number_unsigned());
  EXPECT_TRUE(parse_json(R"({"a":[1,-0]})")["a"][0].is_number_unsigned());
  for (std::string_view spaced : {"{\"a\": -0}", "{\"a\":\n-0}", "[1,\t-0]", "[-0 ]", " -0"})
    EXPECT_FALSE(parse_json(spaced).is_structured() ? parse_json(spaced).back().is_number_unsigned()
                                                    : parse_json(spaced).is_number_unsigned())
      << spaced;
  EXPECT_FALSE(parse_json(R"({"a":[2,-0],"id":"4f1c-0a9e"})")["a"][1].is_number_unsigned());
  EXPECT_EQ(parse_json(R"({"id":"4f1c-0a9e","n":0})")["id"], "4f1c-0a9e");
  EXPECT_TRUE(parse_json("-0.0").is_number_float());
  EXPECT_TRUE(parse_json("18446744073709551615").is_number_unsigned());
  EXPECT_TRUE(parse_json("18446744073709551616").is_number_float());
}

TEST(JsonParse, KeepsARepeatedKeysLastValue) {
  auto v = parse_json(R"({"a":1,"b":2,"a":{"c":[3]}})");
  EXPECT_EQ(v, json::parse(R"({"a":{"c":[3]},"b":2})"));
}

TEST(JsonParse, ThrowsWhatNlohmannThrows) {
  for (std::string_view text : {"", "{", "[1,]", "{\"a\":1} x", "\"\\ud800\"", "\"a\x01\"", "\"\xff\"",
                                "1e400", "nul", "{\"a\" 1}", "[1 2]"})
    EXPECT_EQ(thrown_by(text, parse_json), thrown_by(text, reference)) << text;
  EXPECT_NE(thrown_by("[1,]", parse_json), "nothing");
}

TEST(JsonParse, ReadsTextLargerThanTheKeptParserTakes) {
  std::string big = R"({"text":")" + std::string(small_json_bytes, 'x') + R"(","n":-1})";
  auto v = parse_json(big);
  EXPECT_EQ(v["text"].get_ref<const std::string&>().size(), small_json_bytes);
  EXPECT_TRUE(v["n"].is_number_integer());
  EXPECT_EQ(thrown_by(big.substr(0, big.size() - 1), parse_json),
            thrown_by(big.substr(0, big.size() - 1), reference));
}


// read_envelope(text, limit) is the whole document's members, each as
// json::parse(text) has it, or nothing where the text nests deeper than
// the limit.
void expect_members_of(std::string_view text, const json_envelope& env) {
  auto doc = json::parse(text);
  ASSERT_TRUE(doc.is_object()) << text;
  // The two members kept as they are used are never kept both ways.
  EXPECT_FALSE(env.jsonrpc_2_0 && env.jsonrpc) << text;
  EXPECT_FALSE(env.method_name && env.method) << text;
  const std::string_view names[] = {"id", "jsonrpc", "method", "params", "result", "error"};
  std::optional<std::string> unknown;
  for (auto& [name, value] : doc.items()) {
    if (std::find(std::begin(names), std::end(names), name) == std::end(names)) {
      if (!unknown)
        unknown = name;
      continue;
    }
    auto member = env.member(name);
    ASSERT_TRUE(member.has_value()) << name << " in " << text;
    EXPECT_EQ(member->dump(), value.dump()) << name << " in " << text;
    EXPECT_EQ(member->type(), value.type()) << name << " in " << text;
  }
  for (auto name : names)
    EXPECT_EQ(env.member(name).has_value(), doc.contains(name)) << name << " in " << text;
  EXPECT_EQ(env.unknown, unknown) << text;
  EXPECT_EQ(env.top, json_envelope::shape::object);
}

TEST(JsonEnvelope, HoldsEachMemberAsTheWholeDocumentHasIt) {
  for (std::string_view text : {
         R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"echo","arguments":{"a":[1,-2,0.5]}}})",
         R"({"id":"abc","jsonrpc":"2.0","result":{"content":[{"type":"text","text":"h\u00e9"}]}})",
         R"({"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"x","data":{"k":[]}}})",
         R"({"params":1,"params":{"last":true},"jsonrpc":"2.0","method":"m"})", // a repeated member: its last value
         R"({"zeta":1,"jsonrpc":"2.0","alpha":{"deep":[[]]},"method":"m","Beta":2})", // unknowns: the least first
         R"({"\u0069d":3,"jsonrpc":"2.0","method":"m"})",                            // an escaped name is its text
         R"({"jsonrpc":"2.0","method":"m","params":{"n":-0}})",                       // -0: the long way
         R"({"jsonrpc":"2.0","id":18446744073709551616,"method":"m"})",               // past 64 bits: the long way
         // jsonrpc and method are kept as they are used only when they are
         // "2.0" and a string; a repeated one is its last value either way.
         R"({"jsonrpc":"2.0","jsonrpc":1,"method":"m","method":2})",
         R"({"jsonrpc":1,"jsonrpc":"2.0","method":[],"method":"last"})",
         R"({"jsonrpc":"2.1","method":"a method name longer than a short string's room"})",
         R"({"jsonrpc":"2.0","method":"m\u00e9\n"})",
         R"({})", R"({"":""})"}) {
    auto env = read_envelope(text, 64);
    ASSERT_TRUE(env.has_value()) << text;
    expect_members_of(text, *env);
  }
  std::string big = R"({"jsonrpc":"2.0","method":"m","params":{"text":")" + std::string(small_json_bytes, 'x') + "\"}}";
  auto env = read_envelope(big, 64);
  ASSERT_TRUE(env.has_value());
  expect_members_of(big, *env);
}

TEST(JsonEnvelope, SaysWhatTheTopLevelIsWhenItIsNoObject) {
  EXPECT_EQ(read_envelope("[1,{\"a\":2}]", 64)->top, json_envelope::shape::array);
  EXPECT_EQ(read_envelope("[]", 64)->top, json_envelope::shape::array);
  EXPECT_EQ(read_envelope("\"text\"", 64)->top, json_envelope::shape::scalar);
  EXPECT_EQ(read_envelope("-0", 64)->top, json_envelope::shape::scalar);
  EXPECT_FALSE(read_envelope("[1]", 64)->id.has_value());
}

TEST(JsonEnvelope, RefusesNestingPastTheLimitWhateverItsInnermostHolds) {
  // simdjson's own limit does not count an empty innermost container: the
  // levels must be counted as the text shows them all the same. Each text
  // is made with its nesting known.
  struct nested {
    std::string text;
    std::size_t depth;
  };
  std::vector<nested> texts;
  const std::pair<std::string, std::size_t> innermost[] = {{"1", 0},  {"null", 0}, {"{}", 1},
                                                           {"[]", 1}, {"[1]", 1},  {"{\"b\":[]}", 2}};
  for (std::size_t n = 0; n <= 7; ++n) {
    for (auto& [inner, inner_depth] : innermost) {
      std::string arrays = std::string(n, '[') + inner + std::string(n, ']');
      std::string objects = inner;
      for (std::size_t i = 0; i < n; ++i)
        objects = "{\"a\":" + objects + "}";
      for (const auto& value : {arrays, objects}) {
        std::size_t d = n + inner_depth;
        texts.push_back({R"({"jsonrpc":"2.0","method":"m","params":{"v":)" + value + "}}", d + 2});
        texts.push_back({R"({"jsonrpc":"2.0","method":"m","unknown":)" + value + "}", d + 1});
        texts.push_back({R"({"jsonrpc":"2.0","id":)" + value + "}", d + 1});
        texts.push_back({value, d}); // the top level itself: an array, an object, a scalar
        texts.push_back({R"({"jsonrpc":"2.0","method":"m","params":{"n":-0,"v":)" + value + "}}", d + 2}); // the long way
      }
    }
  }
  for (std::size_t limit : {0, 1, 2, 3, 5}) {
    for (const auto& [text, depth] : texts) {
      std::optional<json_envelope> env;
      ASSERT_NO_THROW(env = read_envelope(text, limit)) << text;
      EXPECT_EQ(!env.has_value(), depth > limit) << "limit " << limit << ": " << text;
    }
  }
}

TEST(JsonEnvelope, JudgesDepthBeforeValidity) {
  // Unclosed, or broken after the point where it is already too deep: the
  // nesting is what is wrong with it first.
  EXPECT_FALSE(read_envelope(std::string(100'000, '['), 64).has_value());
  EXPECT_FALSE(read_envelope(R"({"params":[[[[[[[[[[ x)", 5).has_value());
  EXPECT_FALSE(read_envelope(R"({"params":[[[[[[]]]]]] x)", 5).has_value());
  // Broken and shallow: what json::parse throws.
  for (std::string_view text : {"{", R"({"jsonrpc":"2.0",})", "{\"a\":1} x", "[1 2]", "1e400"})
    EXPECT_EQ(thrown_by(text, [](std::string_view t) {
                read_envelope(t, 64);
                return json();
              }),
              thrown_by(text, reference))
      << text;
}

} // namespace
} // namespace cafmcp

// parse_json(text) is json::parse(text): the same value with the same
// types, and the same exceptions, whichever parser read the text.
#include <string>

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

} // namespace
} // namespace cafmcp

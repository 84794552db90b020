// append_json writes what nlohmann's dump(-1, ' ', false, replace) writes,
// byte for byte, for every kind of value and every kind of string.
#include <string>

#include <gtest/gtest.h>

#include "foundation/json_write.hpp"

namespace cafmcp {
namespace {

std::string nlohmann_text(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

std::string written(const json& j) {
  std::string out = "[before]";
  append_json(out, j);
  EXPECT_EQ(out.substr(0, 8), "[before]");
  return out.substr(8);
}

TEST(JsonWrite, WritesEveryKindOfValueAsNlohmannDoes) {
  json values = json::parse(R"([{}, [], {"b":[1,{"c":null}],"a":true}, "", false, 0, -1, 18446744073709551615,
    -9223372036854775808, 0.1, -0.0, 1e100, 1.5e-7, 3.0, [[[]]]])");
  for (const auto& v : values)
    EXPECT_EQ(written(v), nlohmann_text(v)) << nlohmann_text(v);
  EXPECT_EQ(written(values), nlohmann_text(values));
  json binary = json::binary({1, 2, 3}, 7);
  EXPECT_EQ(written(binary), nlohmann_text(binary));
}

TEST(JsonWrite, EscapesAsNlohmannDoes) {
  std::string every_ascii;
  for (int c = 0; c < 0x80; ++c)
    every_ascii += static_cast<char>(c);
  EXPECT_EQ(written(json(every_ascii)), nlohmann_text(json(every_ascii)));
  EXPECT_EQ(written(json("tab\there \"q\" \\ \x01 \x1f \x7f /")), R"("tab\there \"q\" \\ \u0001 \u001f )"
                                                                  "\x7f"
                                                                  R"( /")");
}

TEST(JsonWrite, CopiesValidUtf8AndReplacesInvalidAsNlohmannDoes) {
  for (std::string s :
       {"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 \xf4\x8f\xbf\xbf", // valid, up to U+10FFFF
        "cut \xc3", "cut \xe2\x82", "overlong \xc0\xaf \xe0\x80\xaf", "surrogate \xed\xa0\x80",
        "past U+10FFFF \xf4\x90\x80\x80", "stray \x80\xbf tail", "\xff\xfe", "\xf5\x80\x80\x80"}) {
    EXPECT_EQ(written(json(s)), nlohmann_text(json(s))) << s;
    json keyed = {{s, s}};
    EXPECT_EQ(written(keyed), nlohmann_text(keyed)) << s;
    std::string out;
    append_json_string(out, s);
    EXPECT_EQ(out, nlohmann_text(json(s))) << s;
  }
  EXPECT_EQ(written(json("cut \xc3")), "\"cut \xef\xbf\xbd\""); // U+FFFD for the bad byte
}

// Plain strings are judged many bytes at a time (json_plain.hpp): a byte
// that needs a look is found at every place in strings of every length
// around the steps' sizes, and a plain one of each length is copied whole.
TEST(JsonWrite, FindsEveryByteThatNeedsALookWhereverItStands) {
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string plain(n, 'a');
    EXPECT_EQ(written(json(plain)), "\"" + plain + "\"");
    for (std::size_t at = 0; at < n; ++at)
      for (int c : {0x00, 0x1f, 0x22, 0x5c, 0x7f, 0x80, 0xc3, 0xff}) { // with `"` and a backslash
        std::string s = plain;
        s[at] = static_cast<char>(c);
        EXPECT_EQ(written(json(s)), nlohmann_text(json(s))) << n << " " << at << " " << c;
      }
  }
}

} // namespace
} // namespace cafmcp

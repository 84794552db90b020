// RFC 4648's test vectors, both alphabets, and refusal of foreign characters.
#include <gtest/gtest.h>

#include "foundation/base64.hpp"

namespace cafmcp::detail {
namespace {

TEST(Base64, EncodesTheRfcVectorsWithPadding) {
  std::pair<const char*, const char*> vectors[] = {{"", ""},
                                                   {"f", "Zg=="},
                                                   {"fo", "Zm8="},
                                                   {"foo", "Zm9v"},
                                                   {"foob", "Zm9vYg=="},
                                                   {"fooba", "Zm9vYmE="},
                                                   {"foobar", "Zm9vYmFy"}};
  for (auto [plain, coded] : vectors) {
    EXPECT_EQ(base64_encode(plain), coded);
    EXPECT_EQ(base64_decode(coded), plain);
  }
}

TEST(Base64, UrlAlphabetHasNoPaddingAndNoPlusOrSlash) {
  std::string bytes = "\xfb\xff\xbf";
  EXPECT_EQ(base64_encode(bytes), "+/+/");
  EXPECT_EQ(base64_encode(bytes, base64_alphabet::url), "-_-_");
  EXPECT_EQ(base64_encode("f", base64_alphabet::url), "Zg");
  EXPECT_EQ(base64_decode("Zg", base64_alphabet::url), "f");
  EXPECT_EQ(base64_decode("-_-_", base64_alphabet::url), bytes);
}

TEST(Base64, RefusesCharactersOutsideTheAlphabet) {
  EXPECT_FALSE(base64_decode("Zm9v!"));
  EXPECT_FALSE(base64_decode("+/+/", base64_alphabet::url));
  EXPECT_FALSE(base64_decode("-_-_"));
}

} // namespace
} // namespace cafmcp::detail

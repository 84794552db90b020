// SEP-2243 custom headers, judged against a tool's schema: what agrees,
// what is missing, what is malformed.
#include <gtest/gtest.h>

#include "protocol/param_headers.hpp"

namespace cafmcp::protocol {
namespace {

const json schema = {{"type", "object"},
                     {"properties",
                      {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                       {"priority", {{"type", "integer"}, {"x-mcp-header", "Priority"}}},
                       {"verbose", {{"type", "boolean"}, {"x-mcp-header", "Verbose"}}},
                       {"nested", {{"type", "object"},
                                   {"properties", {{"zone", {{"type", "string"}, {"x-mcp-header", "Zone"}}}}}}},
                       {"query", {{"type", "string"}}}}}};

bool ok(json args, param_headers h) { return !check_param_headers(schema, args, h); }

TEST(ParamHeaders, AgreeingHeadersPass) {
  EXPECT_TRUE(ok({{"region", "eu-west"}}, {{"region", "eu-west"}}));
  EXPECT_TRUE(ok({{"region", "Hello"}}, {{"region", "=?base64?SGVsbG8=?="}}));
  EXPECT_TRUE(ok({{"region", "x"}, {"priority", 42}, {"verbose", true}},
                 {{"region", "x"}, {"priority", "42"}, {"verbose", "true"}}));
  EXPECT_TRUE(ok({{"priority", 42.0}}, {{"priority", "42"}})); // one number
  EXPECT_TRUE(ok({{"region", "x"}}, {{"region", "  x\t"}}));     // optional whitespace is not the value
  EXPECT_TRUE(ok({{"nested", {{"zone", "a"}}}}, {{"zone", "a"}}));
  // No argument, or null: no header expected; unannotated ones need none.
  EXPECT_TRUE(ok(json::object(), {}));
  EXPECT_TRUE(ok({{"region", nullptr}, {"query", "q"}}, {}));
  // A value that merely looks half like the Base64 form is literal.
  EXPECT_TRUE(ok({{"region", "=?base64?SGVsbG8="}}, {{"region", "=?base64?SGVsbG8="}}));
}

TEST(ParamHeaders, MissingMalformedOrDifferentIsAHeaderMismatch) {
  auto code = [](json args, param_headers h) {
    auto e = check_param_headers(schema, args, h);
    return e ? e->code : 0;
  };
  EXPECT_EQ(code({{"region", "x"}}, {}), jsonrpc::code::header_mismatch);
  EXPECT_EQ(code({{"region", "x"}}, {{"region", "y"}}), jsonrpc::code::header_mismatch);
  EXPECT_EQ(code({{"region", "Hello"}}, {{"region", "=?base64?SGVsbG8?="}}), jsonrpc::code::header_mismatch);
  EXPECT_EQ(code({{"region", "Hello"}}, {{"region", "=?base64?SGVs!!!bG8=?="}}), jsonrpc::code::header_mismatch);
  EXPECT_EQ(code({{"priority", 42}}, {{"priority", "43"}}), jsonrpc::code::header_mismatch);
  EXPECT_EQ(code({{"priority", 42}}, {{"priority", "42abc"}}), jsonrpc::code::header_mismatch);
  EXPECT_EQ(code({{"verbose", false}}, {{"verbose", "true"}}), jsonrpc::code::header_mismatch);
  EXPECT_EQ(code({{"nested", {{"zone", "a"}}}}, {}), jsonrpc::code::header_mismatch);
  EXPECT_EQ(code({{"region", "x"}}, {{"region", "X"}}), jsonrpc::code::header_mismatch); // values are case-sensitive
}

TEST(ParamHeaders, DecodingIsStrictAboutTheBase64Form) {
  EXPECT_EQ(decode_param_header("=?base64?SGVsbG8=?="), "Hello");
  EXPECT_EQ(decode_param_header(" plain "), "plain");
  EXPECT_FALSE(decode_param_header("=?base64?SGVsbG8?="));  // unpadded
  EXPECT_FALSE(decode_param_header("=?base64?S=VsbG8=?=")); // padding inside
  EXPECT_FALSE(decode_param_header("=?base64??="));         // empty
  EXPECT_EQ(decode_param_header("=?base64?w6k=?="), "\xc3\xa9");
}

} // namespace
} // namespace cafmcp::protocol

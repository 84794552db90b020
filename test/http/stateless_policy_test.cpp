// The 2026-07-28 parts of the HTTP request policy, without a socket: which
// POSTs are stateless, the mirrored headers (SEP-2243), answer statuses.
#include <gtest/gtest.h>

#include "streamable_http/request_policy.hpp"

namespace cafmcp::http {
namespace {

jsonrpc::request req(std::string method, json params = json::object()) {
  return {jsonrpc::request_id{std::int64_t{1}}, std::move(method), std::move(params)};
}

TEST(StatelessPolicy, WhichPostsAreStateless) {
  EXPECT_TRUE(is_stateless_post(false, "2026-07-28"));
  EXPECT_TRUE(is_stateless_post(false, "v999"));        // refused there, with our versions
  EXPECT_TRUE(is_stateless_post(true, "2026-07-28"));   // its Mcp-Session-Id is ignored
  EXPECT_FALSE(is_stateless_post(true, "v999"));        // a session's request, refused there
  EXPECT_FALSE(is_stateless_post(false, "2025-11-25")); // a dated revision
  EXPECT_FALSE(is_stateless_post(false, std::nullopt)); // legacy initialize
}

TEST(StatelessPolicy, MirroredHeadersMustMatchTheBody) {
  json meta = {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}};
  auto call = req("tools/call", {{"name", "echo"}, {"_meta", meta["_meta"]}});
  auto code = [&](mirrored_headers h, const jsonrpc::request& r) {
    auto no = check_mirrored_headers(h, r);
    EXPECT_TRUE(!no || no->status == 400);
    return no ? *no->code : 0;
  };
  EXPECT_EQ(code({"2026-07-28", "tools/call", "echo"}, call), 0);
  EXPECT_EQ(code({std::nullopt, "tools/call", "echo"}, call), -32020);
  EXPECT_EQ(code({"2026-07-29", "tools/call", "echo"}, call), -32020);
  EXPECT_EQ(code({"2026-07-28", std::nullopt, "echo"}, call), -32020);
  EXPECT_EQ(code({"2026-07-28", "tools/list", "echo"}, call), -32020);
  EXPECT_EQ(code({"2026-07-28", "tools/call", std::nullopt}, call), -32020);
  EXPECT_EQ(code({"2026-07-28", "tools/call", "other"}, call), -32020);
  // Base64 sentinel: "echo" is ZWNobw==.
  EXPECT_EQ(code({"2026-07-28", "tools/call", "=?base64?ZWNobw==?="}, call), 0);
  EXPECT_EQ(code({"2026-07-28", "tools/call", "=?base64?!!?="}, call), -32020);
  auto read = req("resources/read", {{"uri", "test://x"}});
  EXPECT_EQ(code({"2026-07-28", "resources/read", "test://x"}, read), 0);
  EXPECT_EQ(code({"2026-07-28", "tools/list", std::nullopt}, req("tools/list")), 0); // no Mcp-Name
}

TEST(StatelessPolicy, AnswerStatus) {
  auto err = [](int code) {
    return json{{"jsonrpc", "2.0"}, {"id", 1}, {"error", {{"code", code}, {"message", "m"}}}}.dump();
  };
  EXPECT_EQ(stateless_answer_status(R"({"jsonrpc":"2.0","id":1,"result":{}})"), 200);
  EXPECT_EQ(stateless_answer_status(err(-32601)), 404);
  for (int c : {-32600, -32602, -32020, -32021, -32022})
    EXPECT_EQ(stateless_answer_status(err(c)), 400) << c;
  EXPECT_EQ(stateless_answer_status(err(-32603)), 200);
}

} // namespace
} // namespace cafmcp::http

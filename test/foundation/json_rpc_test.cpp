// JSON-RPC 2.0 as cafmcp parses and writes it: strict, bounded, and never
// emitting what MCP clients reject.
#include <gtest/gtest.h>

#include "cafmcp/json_rpc.hpp"

namespace cafmcp::jsonrpc {
namespace {

parse_failure fails(std::string_view text, limits lim = {}) {
  auto r = parse(text, lim);
  EXPECT_TRUE(std::holds_alternative<parse_failure>(r)) << text.substr(0, 200);
  return std::holds_alternative<parse_failure>(r) ? std::get<parse_failure>(r) : parse_failure{};
}

message parses(std::string_view text) {
  auto r = parse(text);
  EXPECT_TRUE(std::holds_alternative<message>(r))
    << (std::holds_alternative<parse_failure>(r) ? std::get<parse_failure>(r).err.message : "");
  return std::holds_alternative<message>(r) ? std::get<message>(r) : message{};
}

TEST(JsonRpc, ParsesEachKindOfMessage) {
  auto req = parses(R"({"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"x"}})");
  ASSERT_TRUE(std::holds_alternative<request>(req));
  EXPECT_EQ(std::get<request>(req).method, "tools/list");
  EXPECT_EQ((*std::get<request>(req).params)["cursor"], "x");
  auto note = parses(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  ASSERT_TRUE(std::holds_alternative<notification>(note));
  EXPECT_FALSE(std::get<notification>(note).params);
  auto res = parses(R"({"jsonrpc":"2.0","id":"a","result":{}})");
  ASSERT_TRUE(std::holds_alternative<response>(res));
  EXPECT_EQ(std::get<std::string>(std::get<response>(res).id), "a");
  auto err = parses(R"({"jsonrpc":"2.0","id":2,"error":{"code":-1,"message":"no","data":{"k":1}}})");
  ASSERT_TRUE(std::holds_alternative<error_response>(err));
  EXPECT_EQ(std::get<error_response>(err).err.code, -1);
  EXPECT_EQ((*std::get<error_response>(err).err.data)["k"], 1);
}

TEST(JsonRpc, MalformedJsonIsParseError) {
  EXPECT_EQ(fails("{\"jsonrpc\":").err.code, code::parse_error);
  EXPECT_EQ(fails("").err.code, code::parse_error);
}

TEST(JsonRpc, BatchesAreRefused) {
  EXPECT_EQ(fails(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])").err.code, code::invalid_request);
}

TEST(JsonRpc, JsonrpcMustBeExactlyTwoPointZero) {
  auto f = fails(R"({"jsonrpc":"2","id":5,"method":"ping"})");
  EXPECT_EQ(f.err.code, code::invalid_request);
  ASSERT_TRUE(f.id); // the readable id goes back with the error
  EXPECT_EQ(std::get<std::int64_t>(*f.id), 5);
  EXPECT_EQ(fails(R"({"id":5,"method":"ping"})").err.code, code::invalid_request);
}

TEST(JsonRpc, IdsMustBeIntegersOrStrings) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":null,"method":"ping"})").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":true,"method":"ping"})").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":{},"method":"ping"})").err.code, code::invalid_request);
}

TEST(JsonRpc, ParamsMustBeAnObjectWhenPresent) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":null})").err.code,
            code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]})").err.code,
            code::invalid_request);
}

TEST(JsonRpc, ResponsesCarryExactlyOneOfResultAndError) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}})").err.code,
            code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1})").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}})").err.code,
            code::invalid_request);
}

TEST(JsonRpc, UnknownTopLevelMembersAreRefused) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"method":"ping","extra":1})").err.code,
            code::invalid_request);
}

TEST(JsonRpc, OversizeIsRefusedBeforeParsing) {
  limits lim;
  lim.max_message_bytes = 64;
  auto f = fails(std::string(R"({"jsonrpc":"2.0","method":"x","params":{"a":")") + std::string(100, 'z')
                   + "\"}}",
                 lim);
  EXPECT_EQ(f.err.code, code::invalid_request);
  EXPECT_NE(f.err.message.find("64"), std::string::npos);
}

TEST(JsonRpc, HostileNestingIsRefusedWithoutRecursion) {
  std::string deep(1'000'000, '[');
  EXPECT_EQ(fails(deep).err.code, code::invalid_request);
  std::string in_string = R"({"jsonrpc":"2.0","method":"x","params":{"s":")" + std::string(200, '[')
                          + "\"}}";
  parses(in_string); // brackets inside strings are text, not nesting
}

TEST(JsonRpc, SerializeOmitsEmptyParamsAndKeepsIdTypes) {
  EXPECT_EQ(serialize(notification{"notifications/x", std::nullopt}),
            R"({"jsonrpc":"2.0","method":"notifications/x"})");
  auto with_int = serialize(request{std::int64_t{7}, "ping", std::nullopt});
  EXPECT_EQ(json::parse(with_int)["id"], 7);
  EXPECT_FALSE(json::parse(with_int).contains("params"));
  auto with_str = serialize_result(request_id{std::string("7")}, json::object());
  EXPECT_EQ(json::parse(with_str)["id"], "7");
  auto err = json::parse(serialize_error(std::nullopt, {code::parse_error, "bad", std::nullopt}));
  EXPECT_TRUE(err["id"].is_null());
  EXPECT_FALSE(err["error"].contains("data"));
}

TEST(JsonRpc, RoundTripsThroughParse) {
  message original = request{std::string("r-1"), "tools/call", json{{"name", "x"}}};
  auto back = parses(serialize(original));
  ASSERT_TRUE(std::holds_alternative<request>(back));
  EXPECT_EQ(std::get<std::string>(std::get<request>(back).id), "r-1");
  EXPECT_EQ((*std::get<request>(back).params)["name"], "x");
}

TEST(JsonRpc, KeysDistinguishNumberAndStringIds) {
  EXPECT_NE(to_key(request_id{std::int64_t{1}}), to_key(request_id{std::string("1")}));
  EXPECT_EQ(to_key(request_id{std::int64_t{1}}), "1");
  EXPECT_EQ(to_key(request_id{std::string("a\"b")}), R"("a\"b")");
}

} // namespace
} // namespace cafmcp::jsonrpc

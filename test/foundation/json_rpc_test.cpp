// JSON-RPC 2.0 as cafmcp parses and writes it: strict, bounded, and never
// emitting what MCP clients reject.
#include <climits>
#include <cstdint>

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
  auto f = fails("{\"jsonrpc\":");
  EXPECT_EQ(f.err.code, code::parse_error);
  EXPECT_FALSE(f.id);
  EXPECT_NE(f.err.message.find("byte"), std::string::npos) << f.err.message;
  EXPECT_EQ(fails("").err.code, code::parse_error);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"method":"ping"} trailing)").err.code, code::parse_error);
}

TEST(JsonRpc, NumbersBeyondADoubleAreParseErrorsNotExceptions) {
  for (auto text : {R"({"jsonrpc":"2.0","id":1,"method":"ping","params":{"n":1e999999}})",
                    R"({"jsonrpc":"2.0","id":1e400,"method":"ping"})",
                    R"({"jsonrpc":"2.0","method":"x","params":{"n":-1E+99999}})"}) {
    auto f = fails(text);
    EXPECT_EQ(f.err.code, code::parse_error) << text;
    EXPECT_FALSE(f.err.message.empty());
  }
}

TEST(JsonRpc, BatchesAreRefused) {
  auto f = fails(R"([{"jsonrpc":"2.0","id":1,"method":"ping"}])");
  EXPECT_EQ(f.err.code, code::invalid_request);
  EXPECT_NE(f.err.message.find("batch"), std::string::npos) << f.err.message;
}

TEST(JsonRpc, NonObjectJsonIsAnInvalidRequest) {
  EXPECT_EQ(fails("42").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"("ping")").err.code, code::invalid_request);
}

TEST(JsonRpc, JsonrpcMustBeExactlyTwoPointZero) {
  auto f = fails(R"({"jsonrpc":"2","id":5,"method":"ping"})");
  EXPECT_EQ(f.err.code, code::invalid_request);
  EXPECT_EQ(f.err.message, "jsonrpc must be \"2.0\"");
  EXPECT_EQ(fails(R"({"jsonrpc":2.0,"id":5,"method":"ping"})").err.code, code::invalid_request);
}

TEST(JsonRpc, MissingJsonrpcIsAnInvalidRequest) {
  auto f = fails(R"({"id":5,"method":"ping"})");
  EXPECT_EQ(f.err.code, code::invalid_request);
  EXPECT_EQ(f.err.message, "jsonrpc must be \"2.0\"");
}

TEST(JsonRpc, NullIdIsRefusedOnRequests) {
  auto f = fails(R"({"jsonrpc":"2.0","id":null,"method":"ping"})");
  EXPECT_EQ(f.err.code, code::invalid_request);
  EXPECT_FALSE(f.id);
}

TEST(JsonRpc, FloatIdIsRefused) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1.5,"method":"ping"})").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1.0,"method":"ping"})").err.code, code::invalid_request);
}

TEST(JsonRpc, BoolAndObjectIdsAreRefused) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":true,"method":"ping"})").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":{},"method":"ping"})").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":[1],"method":"ping"})").err.code, code::invalid_request);
}

TEST(JsonRpc, IdBeyondInt64IsRefusedRatherThanWrapped) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":18446744073709551615,"method":"ping"})").err.code,
            code::invalid_request);
  auto max = parses(R"({"jsonrpc":"2.0","id":9223372036854775807,"method":"ping"})");
  ASSERT_TRUE(std::holds_alternative<request>(max));
  EXPECT_EQ(std::get<std::int64_t>(std::get<request>(max).id), INT64_MAX);
  auto negative = parses(R"({"jsonrpc":"2.0","id":-3,"method":"ping"})");
  ASSERT_TRUE(std::holds_alternative<request>(negative));
  EXPECT_EQ(std::get<std::int64_t>(std::get<request>(negative).id), -3);
}

TEST(JsonRpc, NullParamsAreRefused) {
  auto f = fails(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":null})");
  EXPECT_EQ(f.err.code, code::invalid_request);
  EXPECT_NE(f.err.message.find("params"), std::string::npos);
}

TEST(JsonRpc, ArrayParamsAreRefused) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"method":"ping","params":[1]})").err.code,
            code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","method":"notifications/x","params":"s"})").err.code,
            code::invalid_request);
}

TEST(JsonRpc, MethodMustBeAString) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"method":7})").err.code, code::invalid_request);
}

TEST(JsonRpc, ResponseWithBothResultAndErrorIsRefused) {
  auto f = fails(R"({"jsonrpc":"2.0","id":1,"result":{},"error":{"code":1,"message":"x"}})");
  EXPECT_EQ(f.err.code, code::invalid_request);
  ASSERT_TRUE(f.id);
  EXPECT_EQ(std::get<std::int64_t>(*f.id), 1);
}

TEST(JsonRpc, ResponseNeedsResultOrError) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1})").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"result":[]})").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","result":{}})").err.code, code::invalid_request);
}

TEST(JsonRpc, ErrorObjectNeedsIntegerCodeAndStringMessage) {
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"error":{"code":"x","message":"m"}})").err.code,
            code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"error":{"code":1.5,"message":"m"}})").err.code,
            code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"error":{"code":1}})").err.code, code::invalid_request);
  EXPECT_EQ(fails(R"({"jsonrpc":"2.0","id":1,"error":{"code":4294967296,"message":"m"}})").err.code,
            code::invalid_request);
}

TEST(JsonRpc, ErrorResponseWithNullIdHasNoId) {
  auto m = parses(R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"bad"}})");
  ASSERT_TRUE(std::holds_alternative<error_response>(m));
  EXPECT_FALSE(std::get<error_response>(m).id);
  EXPECT_EQ(std::get<error_response>(m).err.code, code::parse_error);
}

TEST(JsonRpc, UnknownTopLevelMembersAreRefused) {
  auto f = fails(R"({"jsonrpc":"2.0","id":1,"method":"ping","extra":1})");
  EXPECT_EQ(f.err.code, code::invalid_request);
  EXPECT_NE(f.err.message.find("extra"), std::string::npos) << f.err.message;
}

TEST(JsonRpc, FailureEchoesTheIdWhenReadable) {
  auto by_string = fails(R"({"jsonrpc":"2.0","id":"req-9","method":"ping","params":[]})");
  ASSERT_TRUE(by_string.id);
  EXPECT_EQ(std::get<std::string>(*by_string.id), "req-9");
  auto by_number = fails(R"({"jsonrpc":"1.0","id":12,"method":"ping"})");
  ASSERT_TRUE(by_number.id);
  EXPECT_EQ(std::get<std::int64_t>(*by_number.id), 12);
  EXPECT_FALSE(fails(R"({"jsonrpc":"2.0","method":"ping","params":[]})").id);
}

TEST(JsonRpc, OversizeIsRefusedBeforeParsing) {
  limits lim;
  lim.max_message_bytes = 64;
  // Not even JSON: the size check must come first, so this is -32600, not -32700.
  auto f = fails(std::string(65, '{'), lim);
  EXPECT_EQ(f.err.code, code::invalid_request);
  EXPECT_EQ(f.err.message, "message exceeds 64 bytes");
  parses(R"({"jsonrpc":"2.0","method":"x"})"); // well under
  std::string exact = R"({"jsonrpc":"2.0","method":"x","params":{"a":")";
  exact += std::string(64 - exact.size() - 3, 'z') + "\"}}";
  ASSERT_EQ(exact.size(), 64u);
  EXPECT_TRUE(std::holds_alternative<message>(parse(exact, lim)));
}

TEST(JsonRpc, DefaultSizeLimitIsFourMebibytes) {
  auto f = fails(std::string(4 * 1024 * 1024 + 1, ' '));
  EXPECT_EQ(f.err.code, code::invalid_request);
  EXPECT_EQ(f.err.message, "message exceeds 4194304 bytes");
}

TEST(JsonRpc, HostileNestingIsRefusedWithoutRecursion) {
  std::string deep(1'000'000, '[');
  auto f = fails(deep);
  EXPECT_EQ(f.err.code, code::invalid_request);
  EXPECT_EQ(f.err.message, "nesting deeper than 64");
  std::string closed = std::string(100'000, '[') + std::string(100'000, ']');
  EXPECT_EQ(fails(closed).err.message, "nesting deeper than 64");
  std::string objects;
  for (int i = 0; i < 100'000; ++i)
    objects += "{\"a\":";
  EXPECT_EQ(fails(objects).err.code, code::invalid_request);
}

TEST(JsonRpc, NestingUpToTheLimitIsAccepted) {
  // The envelope is level 1 and params level 2; 62 arrays make 64.
  std::string ok =
    R"({"jsonrpc":"2.0","method":"x","params":{"a":)" + std::string(62, '[') + std::string(62, ']') + "}}";
  parses(ok);
  std::string over =
    R"({"jsonrpc":"2.0","method":"x","params":{"a":)" + std::string(63, '[') + std::string(63, ']') + "}}";
  EXPECT_EQ(fails(over).err.code, code::invalid_request);
  std::string in_string =
    R"({"jsonrpc":"2.0","method":"x","params":{"s":"\"[)" + std::string(200, '[') + "\"}}";
  parses(in_string); // brackets inside strings (after an escaped quote, too) are text
}

TEST(JsonRpc, SerializeOmitsEmptyParamsAndKeepsIdTypes) {
  EXPECT_EQ(serialize(notification{"notifications/x", std::nullopt}),
            R"({"jsonrpc":"2.0","method":"notifications/x"})");
  EXPECT_EQ(serialize(notification{"notifications/x", json(nullptr)}),
            R"({"jsonrpc":"2.0","method":"notifications/x"})");
  EXPECT_EQ(serialize_notification("notifications/x", nullptr),
            R"({"jsonrpc":"2.0","method":"notifications/x"})");
  auto with_int = serialize(request{std::int64_t{7}, "ping", std::nullopt});
  EXPECT_EQ(with_int, R"({"id":7,"jsonrpc":"2.0","method":"ping"})");
  EXPECT_EQ(serialize(request{std::int64_t{7}, "ping", json(nullptr)}), with_int);
  auto with_str = serialize_result(request_id{std::string("7")}, json::object());
  EXPECT_EQ(with_str, R"({"id":"7","jsonrpc":"2.0","result":{}})");
  auto err = json::parse(serialize_error(std::nullopt, {code::parse_error, "bad", std::nullopt}));
  EXPECT_TRUE(err["id"].is_null());
  EXPECT_FALSE(err["error"].contains("data"));
  auto with_data = json::parse(
    serialize_error(request_id{std::int64_t{3}}, {code::resource_not_found, "gone", json{{"uri", "x"}}}));
  EXPECT_EQ(with_data["error"]["code"], -32002);
  EXPECT_EQ(with_data["error"]["data"]["uri"], "x");
}

// The envelopes written as text around their payload are the bytes the
// whole message as JSON would print: payloads past the reserved room,
// non-ASCII and invalid UTF-8 (replaced) included.
TEST(JsonRpc, ResultAndNotificationTextIsTheWholeMessageAsJson) {
  json payload = {{"content", json::array({{{"type", "text"}, {"text", std::string(600, 'x') + "\xc3\xa9\xff"}}})},
                  {"n", 1.5},
                  {"e", json::object()}};
  for (auto& p : {json::object(), json{{"k", "v"}}, payload}) {
    EXPECT_EQ(serialize_result(request_id{std::int64_t{42}}, p), wire_text(result_message(42, p)));
    EXPECT_EQ(serialize_result(request_id{std::string("a\"\xff")}, p),
              wire_text(result_message(std::string("a\"\xff"), p)));
    EXPECT_EQ(serialize_notification("notifications/\xff", &p),
              wire_text(notification_message("notifications/\xff", p)));
  }
  EXPECT_EQ(serialize_result(request_id{std::int64_t{1}}, json(nullptr)), R"({"id":1,"jsonrpc":"2.0","result":{}})");
}

// Error answers too: with and without data (a null data is left out), an
// integer, a string and no id (null), a message past the reserved room
// with characters to escape and invalid UTF-8.
TEST(JsonRpc, ErrorTextIsTheWholeMessageAsJson) {
  std::string long_message = std::string(300, 'm') + "\"\n\xc3\xa9\xff";
  json data = {{"detail", {1, 2, "x"}}, {"why", "\xff"}};
  for (const std::optional<request_id>& id :
       {std::optional<request_id>{}, std::optional<request_id>{std::int64_t{-7}},
        std::optional<request_id>{std::string("q\"\xff")}})
    for (auto& message : {std::string("nope"), long_message})
      for (const std::optional<json>& d : {std::optional<json>{}, std::optional<json>{json(nullptr)},
                                           std::optional<json>{data}}) {
        json id_json = id ? to_json(*id) : json(nullptr);
        EXPECT_EQ(serialize_error(id, error{code::invalid_params, message, d}),
                  wire_text(error_message(id_json, code::invalid_params, message, d.value_or(nullptr))));
        EXPECT_EQ(serialize(error_response{id, error{code::invalid_params, message, d}}),
                  serialize_error(id, error{code::invalid_params, message, d}));
      }
  EXPECT_EQ(serialize_error(std::nullopt, error{-32700, "Parse error", std::nullopt}),
            R"({"error":{"code":-32700,"message":"Parse error"},"id":null,"jsonrpc":"2.0"})");
}

TEST(JsonRpc, SerializedTextIsOneLine) {
  auto line = serialize(notification{"n", json{{"text", "a\nb"}}});
  EXPECT_EQ(line.find('\n'), std::string::npos);
}

TEST(JsonRpc, RoundTripsThroughParse) {
  message original = request{std::string("r-1"), "tools/call", json{{"name", "x"}}};
  auto back = parses(serialize(original));
  ASSERT_TRUE(std::holds_alternative<request>(back));
  EXPECT_EQ(std::get<std::string>(std::get<request>(back).id), "r-1");
  EXPECT_EQ((*std::get<request>(back).params)["name"], "x");
  for (auto text : {R"({"id":42,"jsonrpc":"2.0","method":"ping"})",
                    R"({"id":"42","jsonrpc":"2.0","method":"ping","params":{"a":[1,{}]}})",
                    R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
                    R"({"id":42,"jsonrpc":"2.0","result":{"x":1}})",
                    R"({"error":{"code":-32601,"message":"nope"},"id":"q","jsonrpc":"2.0"})"})
    EXPECT_EQ(serialize(parses(text)), text);
}

TEST(JsonRpc, IntegerIdStaysIntegerAndStringStaysString) {
  auto num = parses(R"({"jsonrpc":"2.0","id":1,"method":"ping"})");
  ASSERT_TRUE(std::holds_alternative<std::int64_t>(std::get<request>(num).id));
  EXPECT_TRUE(
    json::parse(serialize_result(std::get<request>(num).id, json::object()))["id"].is_number_integer());
  auto str = parses(R"({"jsonrpc":"2.0","id":"1","method":"ping"})");
  ASSERT_TRUE(std::holds_alternative<std::string>(std::get<request>(str).id));
  EXPECT_TRUE(json::parse(serialize_result(std::get<request>(str).id, json::object()))["id"].is_string());
}

TEST(JsonRpc, KeysDistinguishNumberAndStringIds) {
  EXPECT_NE(to_key(request_id{std::int64_t{1}}), to_key(request_id{std::string("1")}));
  EXPECT_EQ(to_key(request_id{std::int64_t{1}}), "1");
  EXPECT_EQ(to_key(request_id{std::string("a\"b")}), R"("a\"b")");
}

TEST(JsonRpc, KeysComeBackAsTheIdsTheyWereMadeFromAndNothingElseIsOne) {
  for (const request_id& id :
       {request_id{std::int64_t{0}}, request_id{std::int64_t{-42}}, request_id{std::int64_t{INT64_MAX}},
        request_id{std::int64_t{INT64_MIN}}, request_id{std::string("7")}, request_id{std::string("a\"b")}})
    EXPECT_EQ(from_key(to_key(id)), id) << to_key(id);
  for (std::string_view other : {"007", "1.5", "-", "", "abc", "99999999999999999999", "\"open", "[1]"})
    EXPECT_FALSE(from_key(other)) << other;
}

// answer_error_code reads cafmcp's own answers from their first bytes and
// agrees with a full parse on every one of them.
TEST(JsonRpc, AnswerErrorCodeAgreesWithAParseOnEveryAnswerCafmcpWrites) {
  auto parsed = [](const std::string& text) -> std::optional<int> {
    auto j = json::parse(text);
    if (!j.contains("error"))
      return std::nullopt;
    return j["error"]["code"].get<int>();
  };
  std::vector<request_id> ids = {request_id{0}, request_id{-7}, request_id{std::string("error")},
                                 request_id{std::string(R"({"error":{"code":-32030})")}};
  std::vector<std::string> texts;
  for (auto& id : ids) {
    texts.push_back(serialize_result(id, json{{"content", R"({"error":{"code":-32030}})"}}));
    texts.push_back(serialize_result(id, nullptr));
    texts.push_back(wire_text(result_message(to_json(id), json{{"error", 1}})));
    for (int code : {-32601, -32030, 0, 42, INT_MIN, INT_MAX}) {
      texts.push_back(serialize_error(id, error{code, "m", std::nullopt}));
      texts.push_back(serialize_error(std::nullopt, error{code, "m", json{{"requiredScopes", {"a"}}}}));
      texts.push_back(wire_text(error_message(to_json(id), code, "m", json{{"x", 1}})));
      texts.push_back(serialize(message{error_response{id, error{code, "m", std::nullopt}}}));
    }
  }
  for (auto& t : texts)
    EXPECT_EQ(answer_error_code(t), parsed(t)) << t;
}

TEST(JsonRpc, AnswerErrorCodeParsesTextInAnyOtherOrder) {
  EXPECT_EQ(answer_error_code(R"({"jsonrpc":"2.0","id":1,"error":{"message":"m","code":-32601}})"), -32601);
  EXPECT_EQ(answer_error_code(R"({"jsonrpc":"2.0","id":1,"result":{}})"), std::nullopt);
  EXPECT_EQ(answer_error_code(R"({"error":{"code":1.5,"message":"m"}})"), std::nullopt);
  EXPECT_EQ(answer_error_code(R"({"error":{"code":99999999999,"message":"m"}})"), std::nullopt);
  EXPECT_EQ(answer_error_code(R"({"error":"-32601"})"), std::nullopt);
  EXPECT_EQ(answer_error_code("not json"), std::nullopt);
  EXPECT_EQ(answer_error_code(""), std::nullopt);
  // Our own layout is read from its head alone: the rest is not looked at.
  EXPECT_EQ(answer_error_code(R"({"error":{"code":-32602,)" + std::string(1 << 20, 'x')), -32602);
}

} // namespace
} // namespace cafmcp::jsonrpc

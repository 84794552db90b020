// Bad input gets the right JSON-RPC error, never a crash, and neither the
// session that sent it nor any other session is disturbed.
#include "support.hpp"

namespace cafmcp::test {
namespace {

struct BadInput : ::testing::Test {
  server_options opts() {
    auto o = all_on();
    o.message_limits.max_message_bytes = 4096;
    return o;
  }
  server srv{opts()};
  in_process_client c{srv};
  in_process_client other{srv};
  void SetUp() override {
    c.initialize();
    other.initialize();
  }
  json reply_to_raw(std::string text) {
    c.send_text(std::move(text));
    auto m = c.wait_for([](const json& m) { return m.contains("error"); });
    EXPECT_TRUE(m);
    return m.value_or(json::object());
  }
  void still_serving() {
    EXPECT_EQ(c.request("ping")["result"], json::object());
    EXPECT_EQ(other.request("ping")["result"], json::object());
  }
};

TEST_F(BadInput, MalformedJsonIsParseErrorWithNullId) {
  auto r = reply_to_raw("{\"jsonrpc\": \"2.0\", \"id\": 1, ");
  EXPECT_EQ(r["error"]["code"], -32700);
  EXPECT_TRUE(r["id"].is_null());
  still_serving();
}

TEST_F(BadInput, WrongJsonrpcVersionIsInvalidRequestWithTheId) {
  auto r = reply_to_raw(R"({"jsonrpc":"1.0","id":9,"method":"ping"})");
  EXPECT_EQ(r["error"]["code"], -32600);
  EXPECT_EQ(r["id"], 9);
  still_serving();
}

TEST_F(BadInput, UnknownMethodIsMethodNotFound) {
  auto r = c.request("no/such/method");
  EXPECT_EQ(r["error"]["code"], -32601);
  still_serving();
}

TEST_F(BadInput, WrongParamTypesAreInvalidParams) {
  EXPECT_EQ(c.request("resources/read", {{"uri", 5}})["error"]["code"], -32602);
  EXPECT_EQ(c.request("tools/call", {{"name", true}})["error"]["code"], -32602);
  EXPECT_EQ(c.request("resources/subscribe", {{"uri", json::array()}})["error"]["code"], -32602);
  auto r = reply_to_raw(R"({"jsonrpc":"2.0","id":3,"method":"tools/list","params":[1]})");
  EXPECT_EQ(r["error"]["code"], -32600);
  still_serving();
}

TEST_F(BadInput, NullParamsAndBatchesAreInvalidRequests) {
  EXPECT_EQ(reply_to_raw(R"({"jsonrpc":"2.0","id":4,"method":"ping","params":null})")["error"]["code"],
            -32600);
  EXPECT_EQ(reply_to_raw(R"([{"jsonrpc":"2.0","id":5,"method":"ping"}])")["error"]["code"], -32600);
  still_serving();
}

TEST_F(BadInput, OversizeMessagesAreRefusedClearly) {
  auto r = reply_to_raw(R"({"jsonrpc":"2.0","id":6,"method":"ping","params":{"x":")" + std::string(5000, 'a')
                        + "\"}}");
  EXPECT_EQ(r["error"]["code"], -32600);
  EXPECT_NE(r["error"]["message"].get<std::string>().find("4096"), std::string::npos);
  still_serving();
}

TEST_F(BadInput, OverDeepMessagesAreRefusedWithoutCrashing) {
  std::string deep = R"({"jsonrpc":"2.0","id":7,"method":"ping","params":{"x":)" + std::string(1000, '[')
                     + std::string(1000, ']') + "}}";
  auto r = reply_to_raw(deep);
  EXPECT_EQ(r["error"]["code"], -32600);
  still_serving();
}

TEST_F(BadInput, ADuplicateInFlightIdIsRefused) {
  auto release = std::make_shared<std::promise<void>>();
  auto released = release->get_future().share();
  tool t = echo_tool("hold");
  t.handler = [released](const json&, request_context&) {
    released.wait();
    return tool_result::text("ok");
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  json call = {{"jsonrpc", "2.0"},
               {"id", 77},
               {"method", "tools/call"},
               {"params", {{"name", "hold"}, {"arguments", {{"text", "x"}}}}}};
  c.send(call);
  c.send(call);
  auto dup = c.wait_for([](const json& m) { return m.contains("error"); });
  ASSERT_TRUE(dup);
  EXPECT_EQ((*dup)["error"]["code"], -32600);
  release->set_value();
  EXPECT_TRUE(c.wait_for([](const json& m) { return m.value("id", json()) == 77 && m.contains("result"); }));
}

TEST_F(BadInput, ResponsesAndCancellationsForUnknownIdsAreIgnored) {
  c.send({{"jsonrpc", "2.0"}, {"id", "nobody-asked"}, {"result", json::object()}});
  c.notify("notifications/cancelled", {{"requestId", 12345}});
  c.notify("notifications/cancelled", {{"requestId", json::object()}});
  still_serving();
  srv.stats();
  EXPECT_TRUE(c.take([](const json& m) { return m.contains("error"); }).empty());
}

} // namespace
} // namespace cafmcp::test

// subscriptions/listen's pure parts: the filter and its limit, the
// acknowledgement, and the subscription-id splice.
#include <gtest/gtest.h>

#include "protocol/listen.hpp"

namespace cafmcp::protocol {
namespace {

listen_filter filter_of(const json& params, std::size_t max_uris = 10) {
  auto f = read_listen_filter(params, max_uris);
  EXPECT_TRUE(std::holds_alternative<listen_filter>(f));
  return std::get<listen_filter>(f);
}

TEST(ListenFilter, OnlyWhatWasAskedFor) {
  auto f = filter_of({{"notifications", {{"toolsListChanged", true}, {"resourceSubscriptions", {"a://x"}}}}});
  EXPECT_TRUE(f.wants(item_kind::tool));
  EXPECT_FALSE(f.wants(item_kind::prompt));
  EXPECT_FALSE(f.wants(item_kind::resource));
  EXPECT_EQ(f.uris, std::vector<std::string>{"a://x"});
  auto none = filter_of(json::object());
  EXPECT_FALSE(none.wants(item_kind::tool) || none.wants(item_kind::prompt)
               || none.wants(item_kind::resource));
}

TEST(ListenFilter, MalformedAndOverLimitRefused) {
  auto code = [](const json& params, std::size_t max) {
    auto f = read_listen_filter(params, max);
    return std::holds_alternative<jsonrpc::error>(f) ? std::get<jsonrpc::error>(f).code : 0;
  };
  EXPECT_EQ(code({{"notifications", 3}}, 10), -32602);
  EXPECT_EQ(code({{"notifications", {{"toolsListChanged", "yes"}}}}, 10), -32602);
  EXPECT_EQ(code({{"notifications", {{"resourceSubscriptions", {1}}}}}, 10), -32602);
  json three = {{"notifications", {{"resourceSubscriptions", {"a://1", "a://2", "a://3"}}}}};
  EXPECT_EQ(code(three, 3), 0);
  auto over = read_listen_filter(three, 2);
  ASSERT_TRUE(std::holds_alternative<jsonrpc::error>(over));
  EXPECT_NE(std::get<jsonrpc::error>(over).message.find("limit 2"), std::string::npos);
}

TEST(ListenAck, ListsTheHonouredSubsetUnderTheSubscriptionId) {
  listen_filter f;
  f.prompts = true;
  f.uris = {"a://x"};
  auto ack = listen_acknowledgement(f, json("sub-1"));
  EXPECT_EQ(ack["method"], "notifications/subscriptions/acknowledged");
  EXPECT_EQ(ack["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], "sub-1");
  EXPECT_EQ(ack["params"]["notifications"],
            json({{"promptsListChanged", true}, {"resourceSubscriptions", {"a://x"}}}));
}

// The tasks extension's part: taskIds, bounded like the URIs, listed in
// the acknowledgement; each notification is the DetailedTask without the
// result's resultType.
TEST(ListenTasks, TaskIdsAreReadBoundedAndAcknowledged) {
  auto f = filter_of({{"notifications", {{"taskIds", {"task-1", "task-2"}}}}});
  EXPECT_EQ(f.task_ids, (std::vector<std::string>{"task-1", "task-2"}));
  auto over = read_listen_filter({{"notifications", {{"taskIds", {"a", "b", "c"}}}}}, 2);
  ASSERT_TRUE(std::holds_alternative<jsonrpc::error>(over));
  EXPECT_NE(std::get<jsonrpc::error>(over).message.find("too many taskIds"), std::string::npos);
  auto wrong = read_listen_filter({{"notifications", {{"taskIds", "task-1"}}}}, 10);
  ASSERT_TRUE(std::holds_alternative<jsonrpc::error>(wrong));
  EXPECT_EQ(std::get<jsonrpc::error>(wrong).code, -32602);
  f.task_ids = {"task-2"}; // the honoured subset
  EXPECT_EQ(listen_acknowledgement(f, json(3))["params"]["notifications"], json({{"taskIds", {"task-2"}}}));
  auto n = task_notification({{"resultType", "complete"}, {"taskId", "task-2"}, {"status", "completed"},
                              {"result", {{"content", json::array()}}}});
  EXPECT_EQ(n["method"], "notifications/tasks");
  EXPECT_FALSE(n["params"].contains("resultType"));
  EXPECT_EQ(n["params"]["status"], "completed");
  EXPECT_TRUE(n["params"].contains("result"));
}

// What tells a client its subscription ended on purpose (a shutdown), and
// which subscription: the official SDK's SubscriptionsListenResult shape.
TEST(ListenCompletion, NamesTheSubscriptionAndIsComplete) {
  EXPECT_EQ(
    listen_completion(json("sub-1")),
    json({{"_meta", {{"io.modelcontextprotocol/subscriptionId", "sub-1"}}}, {"resultType", "complete"}}));
  EXPECT_EQ(listen_completion(json(7))["_meta"]["io.modelcontextprotocol/subscriptionId"], 7);
}

TEST(ListenSplice, EachListenerGetsItsIdInOtherwiseIdenticalBytes) {
  json n = {{"jsonrpc", "2.0"},
            {"method", "notifications/resources/updated"},
            {"params", {{"uri", "a://x"}, {"_meta", {{"traceparent", "00-abc"}}}}}};
  auto s = splice_subscription_id(n);
  for (json id : {json(7), json("s\"1")}) {
    auto parsed = json::parse(s.with(id.dump()));
    EXPECT_EQ(parsed["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], id);
    EXPECT_EQ(parsed["params"]["_meta"]["traceparent"], "00-abc"); // trace context kept
    EXPECT_EQ(parsed["params"]["uri"], "a://x");
  }
  // Params-less notifications get params._meta too.
  auto bare = splice_subscription_id({{"jsonrpc", "2.0"}, {"method", "notifications/tools/list_changed"}});
  EXPECT_EQ(json::parse(bare.with("1"))["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 1);
}

} // namespace
} // namespace cafmcp::protocol

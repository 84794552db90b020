// The client's pure parts, without threads or transports: correlation,
// reload scheduling (time passed in), descriptor lists and operation
// metadata, the content cache.
#include <gtest/gtest.h>

#include "cafmcp/client.hpp"

#include "client/cache_store.hpp"
#include "client/descriptor_list.hpp"
#include "client/reload_scheduler.hpp"
#include "client/rpc_channel.hpp"

namespace cafmcp::client_core {
namespace {

using namespace std::chrono_literals;
using cafmcp::json;

struct outcome {
  json result;
  std::optional<rpc_failure> failure;
  int calls = 0;
};

completion recorder(outcome& o) {
  return [&o](json r, std::optional<rpc_failure> f) {
    o.result = std::move(r);
    o.failure = std::move(f);
    ++o.calls;
  };
}

TEST(RpcChannel, CorrelatesResponsesByIdAndIgnoresStrangers) {
  rpc_channel rpc(8);
  outcome a, b;
  auto t0 = steady::now();
  auto text_a = rpc.start("tools/list", json::object(), t0 + 1s, recorder(a));
  auto text_b = rpc.start("ping", nullptr, t0 + 1s, recorder(b));
  ASSERT_TRUE(text_a && text_b);
  auto ma = json::parse(*text_a), mb = json::parse(*text_b);
  EXPECT_EQ(ma["method"], "tools/list");
  EXPECT_FALSE(mb.contains("params")); // never "params": null
  EXPECT_NE(ma["id"], mb["id"]);
  EXPECT_FALSE(rpc.complete({{"jsonrpc", "2.0"}, {"id", 999}, {"result", json::object()}}));
  EXPECT_FALSE(rpc.complete({{"jsonrpc", "2.0"}, {"method", "notifications/x"}}));
  EXPECT_TRUE(rpc.complete({{"jsonrpc", "2.0"}, {"id", mb["id"]}, {"result", {{"ok", 1}}}}));
  EXPECT_EQ(b.result["ok"], 1);
  EXPECT_FALSE(rpc.complete({{"jsonrpc", "2.0"}, {"id", mb["id"]}, {"result", json::object()}})); // twice
  EXPECT_EQ(b.calls, 1);
  EXPECT_TRUE(
    rpc.complete({{"jsonrpc", "2.0"}, {"id", ma["id"]}, {"error", {{"code", -32601}, {"message", "nope"}}}}));
  ASSERT_TRUE(a.failure);
  EXPECT_EQ(a.failure->code, -32601);
  EXPECT_EQ(a.failure->message, "nope");
  EXPECT_EQ(rpc.pending(), 0u);
}

// An error object with members of the wrong types still fails the call
// (json::value() used to throw here, on the transport's thread).
TEST(RpcChannel, AnOddlyTypedErrorStillFailsTheCall) {
  rpc_channel rpc(8);
  outcome a;
  auto text = rpc.start("ping", nullptr, steady::now() + 1s, recorder(a));
  ASSERT_TRUE(text);
  auto id = json::parse(*text)["id"];
  EXPECT_TRUE(rpc.complete({{"jsonrpc", "2.0"}, {"id", id}, {"error", {{"code", "x"}, {"message", 3}}}}));
  ASSERT_TRUE(a.failure);
  EXPECT_EQ(a.failure->code, 0);
  EXPECT_EQ(a.failure->message, "");
}

TEST(RpcChannel, DeadlinesExpireAndCloseFailsEverything) {
  rpc_channel rpc(8);
  outcome soon, later, last;
  auto t0 = steady::now();
  rpc.start("a", nullptr, t0 + 10ms, recorder(soon));
  rpc.start("b", nullptr, t0 + 50ms, recorder(later));
  rpc.start("c", nullptr, t0 + 90ms, recorder(last));
  auto next = rpc.expire(t0 + 20ms);
  ASSERT_TRUE(soon.failure);
  EXPECT_EQ(soon.failure->code, client_error_code::timeout);
  EXPECT_EQ(later.calls, 0);
  EXPECT_EQ(next, t0 + 50ms);
  rpc.fail_all({client_error_code::connection_closed, "gone", nullptr});
  EXPECT_EQ(later.failure->code, client_error_code::connection_closed);
  EXPECT_EQ(last.failure->code, client_error_code::connection_closed);
  EXPECT_EQ(rpc.pending(), 0u);
}

TEST(RpcChannel, RefusesPastItsPendingLimit) {
  rpc_channel rpc(2);
  outcome o1, o2, o3;
  auto d = steady::now() + 1s;
  EXPECT_TRUE(rpc.start("a", nullptr, d, recorder(o1)));
  EXPECT_TRUE(rpc.start("b", nullptr, d, recorder(o2)));
  EXPECT_FALSE(rpc.start("c", nullptr, d, recorder(o3)));
  ASSERT_TRUE(o3.failure);
  EXPECT_EQ(o3.failure->code, client_error_code::too_many_pending);
}

TEST(ReloadScheduler, OneInFlightPlusOneMoreWhateverTheBurst) {
  reload_scheduler s({10ms, 1s, 3});
  auto now = reload_scheduler::clock::now();
  EXPECT_TRUE(s.notified(list_kind::tools));
  for (int i = 0; i < 999; ++i)
    EXPECT_FALSE(s.notified(list_kind::tools));
  EXPECT_TRUE(s.notified(list_kind::prompts)); // lists are independent
  auto first = s.finished(list_kind::tools, true, now);
  EXPECT_TRUE(first.start_now); // once more for what came meanwhile
  auto second = s.finished(list_kind::tools, true, now);
  EXPECT_FALSE(second.start_now);
  EXPECT_FALSE(s.busy(list_kind::tools));
}

TEST(ReloadScheduler, FailuresBackOffExponentiallyThenGiveUp) {
  reload_scheduler s({10ms, 25ms, 4});
  auto t = reload_scheduler::clock::now();
  ASSERT_TRUE(s.notified(list_kind::tools));
  auto f1 = s.finished(list_kind::tools, false, t);
  ASSERT_TRUE(f1.retry_at);
  EXPECT_EQ(*f1.retry_at, t + 10ms);
  EXPECT_FALSE(s.notified(list_kind::tools)); // the retry covers it
  EXPECT_TRUE(s.due(t + 9ms).empty());
  EXPECT_EQ(s.due(t + 10ms), std::vector<list_kind>{list_kind::tools});
  auto f2 = s.finished(list_kind::tools, false, t);
  EXPECT_EQ(*f2.retry_at, t + 20ms);
  ASSERT_EQ(s.due(t + 20ms).size(), 1u);
  auto f3 = s.finished(list_kind::tools, false, t);
  EXPECT_EQ(*f3.retry_at, t + 25ms); // capped
  ASSERT_EQ(s.due(t + 25ms).size(), 1u);
  auto f4 = s.finished(list_kind::tools, false, t);
  EXPECT_TRUE(f4.gave_up);
  EXPECT_EQ(f4.failures, 4);
  EXPECT_FALSE(f4.retry_at);
  EXPECT_FALSE(s.busy(list_kind::tools));
  EXPECT_TRUE(s.notified(list_kind::tools)); // a later notification starts afresh
  auto ok = s.finished(list_kind::tools, true, t);
  EXPECT_FALSE(ok.start_now);
  EXPECT_EQ(ok.failures, 0);
}

TEST(DescriptorList, ReplaceReportsWhatLeftAndApplyPatches) {
  descriptor_list tools(list_kind::tools);
  tools.replace({{{"name", "a"}}, {{"name", "b"}}});
  auto gone = tools.replace({{{"name", "b"}}, {{"name", "c"}}});
  EXPECT_EQ(gone, std::vector<std::string>{"a"});
  EXPECT_FALSE(tools.apply("added", "d", {{"name", "d"}}));
  EXPECT_FALSE(tools.apply("updated", "b", {{"name", "b"}, {"description", "new"}}));
  EXPECT_EQ(tools.apply("removed", "c", {{"name", "c"}}), "c");
  EXPECT_FALSE(tools.apply("removed", "zzz", json::object()));
  ASSERT_EQ(tools.items().size(), 2u);
  EXPECT_EQ(tools.items()[0]["description"], "new");
  EXPECT_TRUE(tools.contains("d"));
}

TEST(ListChange, ReadsCafmcpMetadataFromParamsOrMeta) {
  auto c = parse_list_change("notifications/tools/list_changed",
                             {{"operation", "added"}, {"name", "x"}, {"tool", {{"name", "x"}}}});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->kind, list_kind::tools);
  EXPECT_EQ(c->key, "x");
  json meta = {{"_meta",
                {{"io.cafmcp/change",
                  {{"operation", "removed"},
                   {"uri", "t://{id}"},
                   {"resourceTemplate", {{"uriTemplate", "t://{id}"}}}}}}}};
  auto t = parse_list_change("notifications/resources/list_changed", meta);
  ASSERT_TRUE(t);
  EXPECT_EQ(t->kind, list_kind::resource_templates);
  EXPECT_EQ(t->operation, "removed");
  EXPECT_FALSE(parse_list_change("notifications/tools/list_changed", json::object()));
  EXPECT_FALSE(parse_list_change("notifications/tools/list_changed",
                                 {{"operation", "exploded"}, {"name", "x"}, {"tool", json::object()}}));
  EXPECT_FALSE(parse_list_change("notifications/tools/list_changed",
                                 {{"operation", "added"}, {"name", 7}, {"tool", json::object()}}));
  EXPECT_FALSE(parse_list_change("notifications/tools/list_changed", nullptr));
  EXPECT_EQ(lists_for("notifications/resources/list_changed").size(), 2u);
}

// Users see the cache read-only (plus its clear operations): storing is the
// client's alone, so a user cannot construct one or store into the client's.
template <class Cache>
concept can_store = requires(Cache& c, std::shared_ptr<const resource_read> r) {
  c.store(r);
};
static_assert(!std::is_default_constructible_v<content_cache>);
static_assert(!can_store<content_cache>);
static_assert(can_store<cache_store>);
static_assert(requires(content_cache & c) {
  c.resource("u");
  c.clear_resource_and_templates("u");
  c.clear_all();
});

TEST(ContentCache, ClearsAResourceWithTheTemplateReadsItExpandedTo) {
  cache_store cache;
  std::vector<std::string> changes;
  cache.set_listener([&](const std::string& kind, const std::string& key, bool stored) {
    changes.push_back(kind + ":" + key + (stored ? "+" : "-"));
  });
  auto r = std::make_shared<resource_read>();
  r->uri = "t://7";
  cache.store(std::shared_ptr<const resource_read>(r));
  auto tr = std::make_shared<template_read>();
  tr->uri_template = "t://{id}";
  tr->expanded_uri = "t://7";
  cache.store(std::shared_ptr<const template_read>(tr));
  auto other = std::make_shared<template_read>();
  other->uri_template = "u://{id}";
  other->expanded_uri = "u://7";
  cache.store(std::shared_ptr<const template_read>(other));
  EXPECT_EQ(cache.resource("t://7").get(), r.get()); // the very object stored
  cache.clear_resource_and_templates("t://7");
  EXPECT_FALSE(cache.resource("t://7"));
  EXPECT_FALSE(cache.resource_template("t://{id}"));
  EXPECT_TRUE(cache.resource_template("u://{id}"));
  cache.clear_all();
  EXPECT_EQ(cache.size(), 0u);
  EXPECT_EQ(changes, (std::vector<std::string>{
                       "resource:t://7+", "resource_template:t://{id}+", "resource_template:u://{id}+",
                       "resource:t://7-", "resource_template:t://{id}-", "resource_template:u://{id}-"}));
}

TEST(ToolCall, SuccessNeedsNoErrorAndNoIsError) {
  tool_call ok, tool_error, rpc_error;
  ok.result = {{"content", json::array()}};
  tool_error.result = {{"isError", true}};
  rpc_error.error = rpc_failure{-32602, "unknown tool", nullptr};
  EXPECT_TRUE(ok.success());
  EXPECT_FALSE(tool_error.success());
  EXPECT_TRUE(tool_error.ok());
  EXPECT_FALSE(rpc_error.success());
}

} // namespace
} // namespace cafmcp::client_core

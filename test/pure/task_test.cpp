// Tasks as data: the status moves, which tools/call becomes a task on each
// wire (and which is refused, with which code), and the shapes each wire
// gives a task.
#include <gtest/gtest.h>

#include "protocol/task.hpp"

namespace cafmcp::protocol {
namespace {

const json with_extension = {{"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}};
const json without = {{"elicitation", json::object()}};

TEST(TaskStatus, MovesOnlyForwardOutOfTerminalStates) {
  using s = task_status;
  EXPECT_TRUE(may_move(s::working, s::input_required));
  EXPECT_TRUE(may_move(s::input_required, s::working));
  for (auto end : {s::completed, s::failed, s::cancelled}) {
    EXPECT_TRUE(is_terminal(end));
    EXPECT_TRUE(may_move(s::working, end));
    EXPECT_TRUE(may_move(s::input_required, end));
    for (auto to : {s::working, s::input_required, s::completed, s::failed, s::cancelled})
      EXPECT_FALSE(may_move(end, to)) << to_string(end) << " -> " << to_string(to);
  }
  EXPECT_FALSE(may_move(s::working, s::working));
  EXPECT_FALSE(is_terminal(s::working));
  EXPECT_FALSE(is_terminal(s::input_required));
}

TEST(TaskPlan, ExtensionIsServerDirected) {
  task_options o;
  // Speaks the extension: optional and required tools become tasks, a
  // legacy `task` param changes nothing for a tool that forbids them.
  for (auto support : {task_support::optional, task_support::required}) {
    auto d = plan_task(support, true, with_extension, json::object(), o);
    ASSERT_TRUE(std::holds_alternative<task_plan>(d));
    EXPECT_EQ(std::get<task_plan>(d).wire, task_wire::extension);
    EXPECT_EQ(std::get<task_plan>(d).ttl, o.default_ttl);
  }
  EXPECT_TRUE(std::holds_alternative<std::monostate>(
    plan_task(task_support::forbidden, true, with_extension, {{"task", {{"ttl", 5}}}}, o)));
  // Without it: optional runs in the request, required is -32021 naming it.
  EXPECT_TRUE(std::holds_alternative<std::monostate>(plan_task(task_support::optional, true, without, {}, o)));
  auto refused = plan_task(task_support::required, true, without, {}, o);
  ASSERT_TRUE(std::holds_alternative<jsonrpc::error>(refused));
  auto& e = std::get<jsonrpc::error>(refused);
  EXPECT_EQ(e.code, jsonrpc::code::missing_client_capability);
  ASSERT_TRUE(e.data);
  EXPECT_TRUE((*e.data)["requiredCapabilities"]["extensions"].contains("io.modelcontextprotocol/tasks"));
}

TEST(TaskPlan, SessionsWireFollowsParamsTaskAndTheMinus32601Rules) {
  task_options o;
  o.min_ttl = std::chrono::milliseconds(100);
  o.max_ttl = std::chrono::milliseconds(60000);
  auto asked = [](json ttl) { return json{{"task", {{"ttl", std::move(ttl)}}}}; };
  auto d = plan_task(task_support::optional, false, json::object(), asked(5000), o);
  ASSERT_TRUE(std::holds_alternative<task_plan>(d));
  EXPECT_EQ(std::get<task_plan>(d).wire, task_wire::sessions);
  EXPECT_EQ(std::get<task_plan>(d).ttl.count(), 5000);
  // The requested ttl is held to the server's bounds.
  EXPECT_EQ(std::get<task_plan>(plan_task(task_support::optional, false, {}, asked(1), o)).ttl.count(), 100);
  EXPECT_EQ(std::get<task_plan>(plan_task(task_support::optional, false, {}, asked(1e9), o)).ttl.count(), 60000);
  EXPECT_EQ(std::get<task_plan>(plan_task(task_support::required, false, {}, {{"task", json::object()}}, o)).ttl,
            o.default_ttl);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(plan_task(task_support::optional, false, {}, {}, o)));
  auto code = [&](task_support s, json params) {
    auto r = plan_task(s, false, json::object(), params, o);
    return std::holds_alternative<jsonrpc::error>(r) ? std::get<jsonrpc::error>(r).code : 0;
  };
  EXPECT_EQ(code(task_support::forbidden, asked(10)), jsonrpc::code::method_not_found);
  EXPECT_EQ(code(task_support::required, json::object()), jsonrpc::code::method_not_found);
  EXPECT_EQ(code(task_support::optional, {{"task", "soon"}}), jsonrpc::code::invalid_params);
  EXPECT_EQ(code(task_support::forbidden, json::object()), 0);
}

task_record sample(task_wire wire, task_status status) {
  task_record t;
  t.id = "task-1";
  t.wire = wire;
  t.status = status;
  t.created = t.updated = task_record::clock::time_point(std::chrono::milliseconds(1795748400123));
  t.ttl = std::chrono::milliseconds(60000);
  t.poll_interval = std::chrono::milliseconds(500);
  return t;
}

TEST(TaskShapes, SessionsWireNestsTheTaskAndNamesTtlPlainly) {
  auto t = sample(task_wire::sessions, task_status::working);
  auto created = create_task_result(t);
  ASSERT_TRUE(created.contains("task"));
  EXPECT_EQ(created["task"]["taskId"], "task-1");
  EXPECT_EQ(created["task"]["status"], "working");
  EXPECT_EQ(created["task"]["ttl"], 60000);
  EXPECT_EQ(created["task"]["pollInterval"], 500);
  EXPECT_EQ(created["task"]["createdAt"], "2026-11-27T03:00:00.123Z");
  EXPECT_FALSE(created.contains("resultType"));
  auto view = task_view(t);
  EXPECT_EQ(view["taskId"], "task-1");
  EXPECT_FALSE(view.contains("result"));

  t.status = task_status::completed;
  t.result = {{"content", {{{"type", "text"}, {"text", "ok"}}}}};
  auto out = task_outcome(t);
  ASSERT_TRUE(std::holds_alternative<json>(out));
  EXPECT_EQ(std::get<json>(out)["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], "task-1");
  EXPECT_EQ(std::get<json>(out)["content"][0]["text"], "ok");
  t.status = task_status::failed;
  t.error = jsonrpc::error{-32603, "broke", std::nullopt};
  ASSERT_TRUE(std::holds_alternative<jsonrpc::error>(task_outcome(t)));
  EXPECT_EQ(std::get<jsonrpc::error>(task_outcome(t)).message, "broke");
}

TEST(TaskShapes, ExtensionIsFlatAndInlinesWhatTheStatusHas) {
  auto t = sample(task_wire::extension, task_status::working);
  auto created = create_task_result(t);
  EXPECT_EQ(created["resultType"], "task");
  EXPECT_EQ(created["taskId"], "task-1");
  EXPECT_EQ(created["ttlMs"], 60000);
  EXPECT_EQ(created["pollIntervalMs"], 500);
  for (auto legacy : {"task", "ttl", "pollInterval", "result", "error", "inputRequests", "requestState"})
    EXPECT_FALSE(created.contains(legacy)) << legacy;

  t.status = task_status::input_required;
  t.input_requests = {{"k", {{"method", "elicitation/create"}, {"params", json::object()}}}};
  auto asking = task_view(t);
  EXPECT_EQ(asking["resultType"], "complete");
  EXPECT_EQ(asking["inputRequests"]["k"]["method"], "elicitation/create");
  EXPECT_FALSE(asking.contains("result"));

  t.status = task_status::completed;
  t.result = {{"content", json::array()}, {"isError", true}};
  auto done = task_view(t);
  EXPECT_EQ(done["result"]["isError"], true);
  EXPECT_FALSE(done.contains("inputRequests"));
  EXPECT_FALSE(done["result"].contains("_meta")); // no related-task: the id is at the root

  t.status = task_status::failed;
  t.error = jsonrpc::error{-32603, "broke", json{{"why", "test"}}};
  auto failed = task_view(t);
  EXPECT_EQ(failed["error"]["code"], -32603);
  EXPECT_EQ(failed["error"]["data"]["why"], "test");
  EXPECT_FALSE(failed.contains("result"));
}

TEST(TaskShapes, TheExtensionMethodsNeedTheExtension) {
  EXPECT_FALSE(extension_refusal(with_extension));
  auto no = extension_refusal(without);
  ASSERT_TRUE(no);
  EXPECT_EQ(no->code, jsonrpc::code::missing_client_capability);
  EXPECT_TRUE(extension_refusal(json()));
}

} // namespace
} // namespace cafmcp::protocol

// Tasks over real sockets: a call that outlives its connection (and, on
// 2025-11-25, its session) is read on a new one; cancellation reaches the
// handler; input waits in the task for tasks/update; every limit is refused
// with an error naming it; an expired task is gone.
#include <atomic>
#include <thread>

#include "http_fixture.hpp"

namespace cafmcp::test {
namespace {

using namespace std::chrono_literals;

const json tasks_caps = {{"elicitation", json::object()},
                         {"extensions", {{"io.modelcontextprotocol/tasks", json::object()}}}};

// A 2026-07-28 request that speaks the tasks extension.
std::string task_body(int id, const std::string& method, json params = json::object()) {
  params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                     {"io.modelcontextprotocol/clientCapabilities", tasks_caps},
                     {"io.modelcontextprotocol/logLevel", "info"}};
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

// Opens when the test says so; the handler waiting at it sees cancellation.
struct gate {
  std::promise<void> opened;
  std::shared_future<void> open = opened.get_future().share();
  std::atomic<int> saw_cancel{0};
};

class HttpTasks : public HttpTest {
protected:
  virtual task_options limits() { return {}; }
  void SetUp() override {
    auto o = http_test_server_options();
    o.tasks = limits();
    srv = std::make_unique<server>(o);
    tool t;
    t.name = "gated";
    t.tasks = task_support::optional;
    t.handler = [g = gate_](const json& args, request_context& ctx) {
      ctx.log(log_level::emergency, "waiting at the gate");
      while (g->open.wait_for(5ms) != std::future_status::ready)
        if (ctx.cancelled()) {
          ++g->saw_cancel;
          return tool_result::error("cancelled");
        }
      return tool_result::text("opened for " + args.value("label", std::string("?")));
    };
    srv->add_tool(t).get();
    tool ask;
    ask.name = "asks";
    ask.tasks = task_support::optional;
    ask.handler = [](const json&, request_context& ctx) {
      auto answer = ctx.request("elicitation/create",
                                {{"message", "Name?"},
                                 {"requestedSchema", {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}}}});
      return tool_result::text("hello " + answer["content"].value("name", std::string("?")));
    };
    srv->add_tool(ask).get();
    tool big;
    big.name = "big";
    big.tasks = task_support::required;
    big.handler = [](const json&, request_context&) { return tool_result::text(std::string(4096, 'x')); };
    srv->add_tool(big).get();
    transport = std::make_unique<streamable_http>(*srv, transport_options());
    transport->start();
    port = transport->port();
  }
  json post(raw_http& c, const std::string& body, std::map<std::string, std::string> headers) {
    c.send("POST", body, headers);
    auto r = c.read_reply();
    return r.body.empty() ? json() : r.json_body();
  }
  json stateless(const std::string& method, json params, const std::string& name = {}) {
    static std::atomic<int> id{100};
    raw_http c(port); // each on a connection of its own, closed after
    return post(c, task_body(++id, method, std::move(params)), stateless_headers(method, name));
  }
  json in_session(open_session& s, int id, const std::string& method, json params) {
    return post(*s.conn, rpc(id, method, std::move(params)), {{"Mcp-Session-Id", s.id}});
  }
  // Polls tasks/get (bounded) until `done` accepts it.
  json get_until(const std::string& id, const std::function<bool(const json&)>& done) {
    json r;
    for (int i = 0; i < 2000; ++i) {
      r = stateless("tasks/get", {{"taskId", id}}, id);
      if (done(r))
        break;
    }
    return r;
  }
  std::shared_ptr<gate> gate_ = std::make_shared<gate>();
};

TEST_F(HttpTasks, ASessionsTaskOutlivesItsSessionAndIsReadFromAnother) {
  std::string id;
  {
    auto a = initialize();
    auto created = in_session(a, 2, "tools/call", {{"name", "gated"}, {"arguments", {{"label", "A"}}}, {"task", {{"ttl", 60000}}}});
    ASSERT_TRUE(created["result"].contains("task")) << created.dump();
    id = created["result"]["task"]["taskId"];
    EXPECT_EQ(created["result"]["task"]["status"], "working");
    EXPECT_EQ(created["result"]["task"]["ttl"], 60000);
    auto listed = in_session(a, 3, "tasks/list", json::object());
    ASSERT_EQ(listed["result"]["tasks"].size(), 1u);
    EXPECT_EQ(listed["result"]["tasks"][0]["taskId"], id);
    a.conn->send("DELETE", "", {{"Mcp-Session-Id", a.id}}); // the client leaves, its session ends
    EXPECT_EQ(a.conn->read_reply().status, 200);
  }
  auto b = initialize();
  auto seen = in_session(b, 2, "tasks/get", {{"taskId", id}});
  EXPECT_EQ(seen["result"]["status"], "working") << seen.dump();
  EXPECT_TRUE(in_session(b, 3, "tasks/list", json::object())["result"]["tasks"].empty()); // not b's
  // tasks/result waits for the end: ask first, then open the gate.
  b.conn->send("POST", rpc(4, "tasks/result", {{"taskId", id}}), {{"Mcp-Session-Id", b.id}});
  gate_->opened.set_value();
  auto result = b.conn->read_reply();
  ASSERT_EQ(result.status, 200);
  auto body = result.body.find("data: ") != std::string::npos
                ? json::parse(result.body.substr(result.body.rfind("data: ") + 6))
                : result.json_body();
  EXPECT_EQ(body["result"]["content"][0]["text"], "opened for A") << result.body;
  EXPECT_EQ(body["result"]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], id);
  EXPECT_EQ(in_session(b, 5, "tasks/get", {{"taskId", id}})["result"]["status"], "completed");
  // A finished task cannot be cancelled (2025-11-25: -32602).
  EXPECT_EQ(in_session(b, 6, "tasks/cancel", {{"taskId", id}})["error"]["code"], -32602);
}

TEST_F(HttpTasks, AnExtensionTaskIsReadOnANewConnectionOnceDone) {
  auto created = stateless("tools/call", {{"name", "gated"}, {"arguments", {{"label", "B"}}}}, "gated");
  ASSERT_EQ(created["result"]["resultType"], "task") << created.dump();
  std::string id = created["result"]["taskId"];
  EXPECT_EQ(created["result"]["status"], "working");
  // The creating connection is closed; another one reads it, with what the
  // handler logged since as its statusMessage.
  auto working = get_until(id, [](const json& r) { return r["result"].contains("statusMessage"); });
  EXPECT_EQ(working["result"]["status"], "working");
  EXPECT_EQ(working["result"]["statusMessage"], "waiting at the gate") << working.dump();
  gate_->opened.set_value();
  auto done = get_until(id, [](const json& r) { return r["result"]["status"] == "completed"; });
  EXPECT_EQ(done["result"]["status"], "completed") << done.dump();
  EXPECT_EQ(done["result"]["result"]["content"][0]["text"], "opened for B");
  EXPECT_EQ(stateless("tasks/get", {{"taskId", "task-unknown"}}, "task-unknown")["error"]["code"], -32602);
}

TEST_F(HttpTasks, CancellingReachesTheHandlerAndSettlesCancelled) {
  auto created = stateless("tools/call", {{"name", "gated"}}, "gated");
  std::string id = created["result"]["taskId"];
  auto ack = stateless("tasks/cancel", {{"taskId", id}}, id);
  EXPECT_EQ(ack["result"], json({{"resultType", "complete"}}));
  EXPECT_EQ(stateless("tasks/get", {{"taskId", id}}, id)["result"]["status"], "cancelled");
  for (int i = 0; i < 2000 && gate_->saw_cancel.load() == 0; ++i) // bounded: the handler polls every 5 ms
    stateless("tasks/get", {{"taskId", id}}, id);
  EXPECT_EQ(gate_->saw_cancel.load(), 1);
  // Still cancelled: what the handler returned after did not count.
  EXPECT_EQ(stateless("tasks/get", {{"taskId", id}}, id)["result"]["status"], "cancelled");
  EXPECT_EQ(stateless("tasks/cancel", {{"taskId", id}}, id)["result"]["resultType"], "complete"); // idempotent
}

TEST_F(HttpTasks, InputWaitsInTheTaskForTasksUpdate) {
  auto created = stateless("tools/call", {{"name", "asks"}}, "asks");
  std::string id = created["result"]["taskId"];
  auto asking = get_until(id, [](const json& r) { return r["result"]["status"] == "input_required"; });
  ASSERT_EQ(asking["result"]["status"], "input_required") << asking.dump();
  auto requests = asking["result"]["inputRequests"];
  ASSERT_EQ(requests.size(), 1u);
  auto key = requests.begin().key();
  EXPECT_EQ(requests[key]["method"], "elicitation/create");
  auto ack = stateless("tasks/update",
                       {{"taskId", id}, {"inputResponses", {{key, {{"action", "accept"}, {"content", {{"name", "Ada"}}}}}}}},
                       id);
  EXPECT_EQ(ack["result"], json({{"resultType", "complete"}}));
  auto done = get_until(id, [](const json& r) { return r["result"]["status"] == "completed"; });
  EXPECT_EQ(done["result"]["result"]["content"][0]["text"], "hello Ada") << done.dump();
}

TEST_F(HttpTasks, TheExtensionIsRequiredForItsMethodsAndRequiredTasks) {
  raw_http c(port);
  auto without = [&](int id, const std::string& method, json params, const std::string& name) {
    return post(c, stateless_body(id, method, std::move(params)), stateless_headers(method, name));
  };
  EXPECT_EQ(without(1, "tasks/get", {{"taskId", "x"}}, "x")["error"]["code"], -32021);
  EXPECT_EQ(without(2, "tools/call", {{"name", "big"}}, "big")["error"]["code"], -32021);
  gate_->opened.set_value();
  auto sync = without(3, "tools/call", {{"name", "gated"}, {"arguments", {{"label", "sync"}}}}, "gated");
  EXPECT_FALSE(sync["result"].contains("taskId")); // optional: answered in the request
  EXPECT_EQ(sync["result"]["content"][0]["text"], "opened for sync");
}

// 2026-07-28: a listen stream names the tasks it follows (taskIds); each
// move of one arrives as notifications/tasks, the DetailedTask tasks/get
// would give, under the stream's subscription id. An id the caller cannot
// read is not acknowledged; a client without the extension is refused.
TEST_F(HttpTasks, AListenStreamFollowsTheTasksItNames) {
  auto created = stateless("tools/call", {{"name", "gated"}, {"arguments", {{"label", "L"}}}}, "gated");
  std::string id = created["result"]["taskId"];
  raw_http listener(port);
  listener.send("POST",
                task_body(40, "subscriptions/listen", {{"notifications", {{"taskIds", {id, "task-unknown"}}}}}),
                stateless_headers("subscriptions/listen"));
  ASSERT_EQ(listener.read_reply().status, 200);
  auto ack = listener.next_event();
  ASSERT_TRUE(ack);
  EXPECT_EQ(json::parse(ack->data)["params"]["notifications"], json({{"taskIds", {id}}}));
  gate_->opened.set_value();
  auto n = listener.next_event();
  ASSERT_TRUE(n);
  auto m = json::parse(n->data);
  EXPECT_EQ(m["method"], "notifications/tasks");
  EXPECT_EQ(m["params"]["taskId"], id);
  EXPECT_EQ(m["params"]["status"], "completed");
  EXPECT_EQ(m["params"]["result"]["content"][0]["text"], "opened for L");
  EXPECT_EQ(m["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"], 40);
  EXPECT_FALSE(m["params"].contains("resultType"));

  raw_http plain(port);
  auto refused = post(plain, stateless_body(41, "subscriptions/listen", {{"notifications", {{"taskIds", {id}}}}}),
                      stateless_headers("subscriptions/listen"));
  EXPECT_EQ(refused["error"]["code"], -32021) << refused.dump();
}

class HttpTaskLimits : public HttpTasks {
protected:
  task_options limits() override {
    task_options o;
    o.max_tasks_per_owner = 1;
    o.max_result_bytes = 1024;
    o.min_ttl = 0ms;
    return o;
  }
};

TEST_F(HttpTaskLimits, PerClientCountAndResultSizeAreRefusedByName) {
  auto s = initialize();
  auto first = in_session(s, 2, "tools/call", {{"name", "gated"}, {"task", json::object()}});
  ASSERT_TRUE(first["result"].contains("task"));
  auto second = in_session(s, 3, "tools/call", {{"name", "gated"}, {"task", json::object()}});
  ASSERT_TRUE(second.contains("error")) << second.dump();
  EXPECT_NE(second["error"]["message"].get<std::string>().find("limit 1"), std::string::npos);
  // A result over max_result_bytes fails its task instead of being kept.
  auto big = stateless("tools/call", {{"name", "big"}}, "big");
  std::string id = big["result"]["taskId"];
  auto failed = get_until(id, [](const json& r) { return r["result"]["status"] == "failed"; });
  EXPECT_EQ(failed["result"]["status"], "failed") << failed.dump();
  EXPECT_NE(failed["result"]["error"]["message"].get<std::string>().find("1024"), std::string::npos);
  gate_->opened.set_value();
}

TEST_F(HttpTaskLimits, AnExpiredTaskIsGone) {
  auto s = initialize();
  auto created = in_session(s, 2, "tools/call", {{"name", "gated"}, {"task", {{"ttl", 1}}}});
  std::string id = created["result"]["task"]["taskId"];
  EXPECT_EQ(created["result"]["task"]["ttl"], 1);
  json r;
  for (int i = 0; i < 5000; ++i) { // bounded: its ttl is 1 ms
    r = in_session(s, 10 + i, "tasks/get", {{"taskId", id}});
    if (!r.is_object() || r.contains("error"))
      break;
  }
  EXPECT_EQ(r["error"]["code"], -32602) << r.dump();
  // Its handler was told to stop.
  for (int i = 0; i < 2000 && gate_->saw_cancel.load() == 0; ++i)
    in_session(s, 9000 + i, "ping", json::object());
  EXPECT_EQ(gate_->saw_cancel.load(), 1);
}

} // namespace
} // namespace cafmcp::test

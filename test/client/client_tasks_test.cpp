// cafmcp::client's task API against the everything-server's task fixtures
// (2025-11-25 wire): start, wait for the result, input answered by the
// client's handler while the task runs, cancel, list, status events, and a
// result read by a second client.
#include <gtest/gtest.h>

#include "cafmcp/client.hpp"
#include "cafmcp/in_process_client_transport.hpp"

#include "actors/server_access.hpp"
#include "fixtures.hpp"

namespace cafmcp::test {
namespace {

using namespace std::chrono_literals;

class ClientTasks : public ::testing::Test {
protected:
  void SetUp() override {
    everything::install_task_fixtures(srv);
    client_options o;
    o.on_elicitation = [](const json& params) {
      EXPECT_TRUE(params["_meta"].contains("io.modelcontextprotocol/related-task"));
      return json{{"action", "accept"}, {"content", {{"confirm", true}}}};
    };
    c = std::make_unique<client>(make_in_process_client_transport(srv), o);
    c->connect().get();
  }
  server srv;
  std::unique_ptr<client> c;
};

TEST_F(ClientTasks, StartedTaskEndsWithItsResultAndStatusEvents) {
  std::mutex m;
  std::condition_variable cv;
  std::vector<std::string> statuses;
  auto sub = c->on(client_event_kind::task_status, [&](const client_event& e) {
    std::lock_guard<std::mutex> g(m);
    statuses.push_back(e.detail.value("status", ""));
    cv.notify_all();
  });
  std::vector<json> logs;
  auto log_sub = c->on(client_event_kind::log_message, [&](const client_event& e) {
    std::lock_guard<std::mutex> g(m);
    logs.push_back(e.detail);
    cv.notify_all();
  });
  auto t = c->start_tool_task("slow_compute", {{"seconds", 0.05}, {"label", "cpp"}}, 60s).get();
  EXPECT_EQ(t.status, "working");
  EXPECT_FALSE(t.terminal());
  EXPECT_TRUE(t.poll_interval);
  auto result = c->task_result(t.id).get();
  EXPECT_EQ(result["content"][0]["text"].get<std::string>().rfind("cpp done", 0), 0u) << result.dump();
  EXPECT_EQ(result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], t.id);
  auto after = c->get_task(t.id).get();
  EXPECT_EQ(after.status, "completed");
  EXPECT_TRUE(after.terminal());
  std::unique_lock<std::mutex> g(m);
  EXPECT_TRUE(cv.wait_for(g, 10s, [&] { return !statuses.empty() && statuses.back() == "completed"; }));
  // What the handler logged after the call was answered still arrives, naming its task.
  EXPECT_TRUE(cv.wait_for(g, 10s, [&] { return !logs.empty(); }));
  ASSERT_FALSE(logs.empty());
  EXPECT_EQ(logs[0]["data"], "cpp started");
  EXPECT_EQ(logs[0]["_meta"]["io.modelcontextprotocol/related-task"]["taskId"], t.id);
}

TEST_F(ClientTasks, InputTheTaskAsksForIsAnsweredByTheClientsHandler) {
  auto t = c->start_tool_task("confirm_delete", {{"filename", "a.txt"}}).get();
  EXPECT_EQ(c->task_result(t.id).get()["content"][0]["text"], "Deleted a.txt");
}

TEST_F(ClientTasks, CancelledAndListedAndReadFromAnotherClient) {
  auto slow = c->start_tool_task("slow_compute", {{"seconds", 30}}).get();
  auto done = c->start_tool_task("slow_compute", {{"seconds", 0}}).get();
  auto mine = c->list_tasks().get();
  ASSERT_EQ(mine.size(), 2u);
  EXPECT_EQ(mine[0].id, slow.id); // oldest first
  EXPECT_EQ(c->cancel_task(slow.id).get().status, "cancelled");
  EXPECT_EQ(c->get_task(slow.id).get().status, "cancelled");
  EXPECT_THROW(c->cancel_task(slow.id).get(), client_error); // terminal: -32602
  EXPECT_THROW(c->task_result(slow.id).get(), client_error);  // cancelled: no result
  client other(make_in_process_client_transport(srv));
  other.connect().get();
  EXPECT_TRUE(other.list_tasks().get().empty()); // not its tasks
  EXPECT_EQ(other.task_result(done.id).get()["content"][0]["text"].get<std::string>().rfind("compute done", 0), 0u);
  EXPECT_THROW(other.get_task("task-none").get(), client_error);
}

TEST_F(ClientTasks, AToolThatRequiresATaskIsRefusedAsAPlainCall) {
  try {
    c->request("tools/call", {{"name", "failing_job"}}).get();
    FAIL() << "failing_job answered a plain call";
  } catch (const client_error& e) {
    EXPECT_EQ(e.failure.code, -32601);
  }
  auto t = c->start_tool_task("failing_job").get();
  auto r = c->task_result(t.id).get();
  EXPECT_EQ(r["isError"], true); // a tool error completes the task
}

// Each task is an actor, and a temporary child: one that dies is not
// restarted (its handler's continuation died with it), but its end is
// recorded. The task reads failed, naming why; the handler sees
// cancelled(); whoever waited on tasks/result is answered.
TEST_F(ClientTasks, ATaskWhoseActorDiesReadsFailedAndItsWaiterIsAnswered) {
  auto t = c->start_tool_task("slow_compute", {{"seconds", 30}}).get();
  auto waiting = c->task_result(t.id);
  auto& tasks = *server_access::of(srv).rt->tasks;
  auto actor = tasks.actor_of(t.id);
  ASSERT_TRUE(actor);
  caf::anon_send_exit(*actor, caf::exit_reason::kill);
  try {
    waiting.get();
    FAIL() << "tasks/result of a task whose actor died gave a result";
  } catch (const client_error& e) {
    EXPECT_NE(e.failure.message.find("actor ended"), std::string::npos) << e.failure.message;
  }
  auto after = c->get_task(t.id).get();
  EXPECT_EQ(after.status, "failed");
  EXPECT_NE(after.status_message.find("actor ended"), std::string::npos) << after.status_message;
  // The others are unaffected.
  auto next = c->start_tool_task("slow_compute", {{"seconds", 0}}).get();
  EXPECT_EQ(c->task_result(next.id).get()["content"][0]["text"].get<std::string>().rfind("compute done", 0), 0u);
}

} // namespace
} // namespace cafmcp::test

// The edits a task's record goes through (protocol/task_moves): what each
// event changes, and that none moves a task out of a terminal status.
#include <gtest/gtest.h>

#include "protocol/task_moves.hpp"

namespace cafmcp::protocol {
namespace {

const task_time t0{std::chrono::seconds(1000)};
const task_time t1{std::chrono::seconds(1001)};

task_record working(task_wire wire = task_wire::extension) {
  task_record t;
  t.id = "task-1";
  t.wire = wire;
  t.created = t.updated = t0;
  return t;
}

json ask(const std::string& what) { return {{"method", "elicitation/create"}, {"params", {{"message", what}}}}; }

TEST(TaskMoves, SettleCompletesOrFailsAndAnOversizedResultFailsNamingTheLimit) {
  auto t = working();
  ASSERT_TRUE(settle_task(t, json{{"content", json::array()}}, 1000, t1));
  EXPECT_EQ(t.status, task_status::completed);
  EXPECT_EQ(t.updated, t1);
  EXPECT_FALSE(settle_task(t, json::object(), 1000, t1)); // terminal: nothing moves

  auto big = working();
  ASSERT_TRUE(settle_task(big, json{{"text", std::string(100, 'x')}}, 50, t1));
  EXPECT_EQ(big.status, task_status::failed);
  ASSERT_TRUE(big.error);
  EXPECT_NE(big.error->message.find("limit of 50 bytes"), std::string::npos) << big.error->message;

  auto bad = working();
  ASSERT_TRUE(settle_task(bad, jsonrpc::error{-32603, "boom", std::nullopt}, 1000, t1));
  EXPECT_EQ(bad.status, task_status::failed);
  EXPECT_EQ(bad.status_message, "boom");
}

TEST(TaskMoves, ParkKeepsOnlyUnansweredRequestsAndResumesWhenNoneIsLeft) {
  auto t = working();
  bool resume = true;
  ASSERT_TRUE(park_task(t, {{"a", ask("A?")}, {"b", ask("B?")}}, {{"a", "yes"}}, {{"step", 2}}, t1, resume));
  EXPECT_FALSE(resume);
  EXPECT_EQ(t.status, task_status::input_required);
  EXPECT_EQ(t.input_requests.size(), 1u);
  EXPECT_TRUE(t.input_requests.contains("b"));
  EXPECT_EQ(t.handler_state["step"], 2);

  auto all = working();
  ASSERT_TRUE(park_task(all, {{"a", ask("A?")}}, {{"a", "yes"}}, nullptr, t1, resume));
  EXPECT_TRUE(resume); // asked only for what it has
  EXPECT_EQ(all.status, task_status::working);
}

TEST(TaskMoves, AnswersFillPendingRequestsOnlyAndTheLastOneResumes) {
  auto t = working();
  bool resume = false;
  ASSERT_TRUE(park_task(t, {{"a", ask("A?")}, {"b", ask("B?")}}, json::object(), nullptr, t1, resume));
  ASSERT_TRUE(answer_task(t, {{"a", "1"}, {"never-asked", "x"}}, t1, resume));
  EXPECT_FALSE(resume);
  EXPECT_EQ(t.status, task_status::input_required);
  EXPECT_FALSE(t.answers.contains("never-asked"));
  EXPECT_FALSE(t.input_requests.contains("a"));
  ASSERT_TRUE(answer_task(t, {{"b", "2"}}, t1, resume));
  EXPECT_TRUE(resume);
  EXPECT_EQ(t.status, task_status::working);
  EXPECT_EQ(t.answers, (json{{"a", "1"}, {"b", "2"}}));
  // A working task waits for nothing: an update does not run it again.
  EXPECT_FALSE(answer_task(t, json::object(), t1, resume));
  EXPECT_FALSE(resume);
}

TEST(TaskMoves, CancelEndsARunningTaskAndEachWireAnswersAsItsSpecSays) {
  auto before = working(task_wire::sessions);
  auto t = before;
  ASSERT_TRUE(cancel_task(t, t1));
  EXPECT_EQ(t.status, task_status::cancelled);
  auto answer = cancel_answer(before, t);
  ASSERT_TRUE(std::holds_alternative<json>(answer));
  EXPECT_EQ(std::get<json>(answer)["status"], "cancelled");

  auto done = t; // cancelled already: 2025-11-25 says -32602
  EXPECT_FALSE(cancel_task(done, t1));
  auto again = cancel_answer(done, std::nullopt);
  ASSERT_TRUE(std::holds_alternative<jsonrpc::error>(again));
  EXPECT_EQ(std::get<jsonrpc::error>(again).code, -32602);

  auto ext = working(task_wire::extension); // 2026-07-28 acks either way
  ext.status = task_status::completed;
  EXPECT_EQ(std::get<json>(cancel_answer(ext, std::nullopt)), task_ack());
}

TEST(TaskMoves, InputWaitsAndNotesMoveOnlyARunningTask) {
  auto t = working(task_wire::sessions);
  ASSERT_TRUE(await_input(t, true, t1));
  EXPECT_EQ(t.status, task_status::input_required);
  EXPECT_FALSE(await_input(t, true, t1));
  ASSERT_TRUE(await_input(t, false, t1));
  EXPECT_EQ(t.status, task_status::working);
  ASSERT_TRUE(note_task(t, note_text({{"params", {{"progress", 1}, {"total", 4}}}}), t1));
  EXPECT_EQ(t.status_message, "progress 1 of 4");
  EXPECT_EQ(note_text({{"params", {{"level", "info"}, {"data", "copying"}}}}), "copying");
  EXPECT_EQ(note_text(json::object()), "");
  ASSERT_TRUE(fail_task(t, "gone", t1));
  EXPECT_FALSE(await_input(t, true, t1));
  EXPECT_FALSE(note_task(t, "late", t1));
  EXPECT_EQ(t.status_message, "gone");
}

} // namespace
} // namespace cafmcp::protocol

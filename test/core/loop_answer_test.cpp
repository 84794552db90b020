// A handler thread's answer goes back to its session through the event
// loop the request came from (worker.cpp, loop_door.hpp): the session, idle,
// takes it on that loop and answers there. Through CAF's scheduler a CAF
// worker took it and handed the frame on to the loop: two wake-ups a call
// where this is one.
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "actor_loop.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

std::string call_text(int id) {
  return R"({"jsonrpc":"2.0","id":)" + std::to_string(id)
         + R"(,"method":"tools/call","params":{"name":"where","arguments":{}}})";
}

// The session was set up from this thread, so its last setup messages run
// on CAF workers, and a session still inside one takes the answer there, as
// it should: the first calls may be answered on a worker. Without the way
// back through the loop, every call is. Once one is answered on the loop,
// the session was idle when the loop woke it, nothing else wakes it, and
// the calls after it are answered there too.
TEST(LoopAnswer, AHandlerThreadsAnswerIsSentOnTheLoopTheRequestCameFrom) {
  server srv(all_on());
  std::mutex mtx;
  std::vector<std::thread::id> handler_threads;
  test_loop* loop_of_calls = nullptr;
  tool t;
  t.name = "where";
  t.input_schema = {{"type", "object"}};
  t.handler = [&](const json&, request_context&) { // not quick: a handler thread runs it
    {
      std::lock_guard lock(mtx);
      handler_threads.push_back(std::this_thread::get_id());
    }
    // Answers once the loop has run what it holds now (the session's turn
    // that handed this call over): a quick answer would otherwise find the
    // session still in that turn, and be taken there whichever way it came.
    auto turn_over = std::make_shared<std::promise<void>>();
    auto done = turn_over->get_future();
    loop_of_calls->post([turn_over] { turn_over->set_value(); });
    done.wait();
    return tool_result::text("ran");
  };
  ASSERT_TRUE(applied(srv.add_tool(std::move(t))));
  std::shared_ptr<connection> conn;
  auto out = recorded_session(srv, conn);
  test_loop loop(srv, true);
  loop_of_calls = &loop;
  const std::vector<std::thread::id> on_the_loop{loop.id()};
  auto answered_on = [&](int id) {
    loop.post([conn, id] { conn->receive(call_text(id)); }); // the request comes from the loop
    EXPECT_TRUE(becomes([&] { return out->answered(std::to_string(id)); }));
    return out->sent_on("\"id\":" + std::to_string(id));
  };
  int id = 100;
  while (answered_on(id) != on_the_loop)
    ASSERT_LT(++id, 150) << "no answer was sent on the loop's thread";
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(answered_on(++id), on_the_loop);
  std::lock_guard lock(mtx);
  for (auto thread : handler_threads)
    EXPECT_NE(thread, loop.id()); // the handlers ran elsewhere
  conn->close();
}

} // namespace
} // namespace cafmcp::test

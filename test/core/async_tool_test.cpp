// Asynchronous tools (tool::async_handler) and the mutations' callback
// forms: a call answered later through a tool_reply, once, from any thread,
// with no handler thread waiting meanwhile; a reply dropped unanswered
// still answers the client.
#include <thread>

#include "actors/messages.hpp"
#include "actors/server_access.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

std::size_t handler_threads(server& srv) { return server_access::of(srv).rt->workers->threads(); }

json text_args(const std::string& text) { return {{"text", text}}; }

tool async_tool(std::string name, async_tool_handler handler) {
  tool t = echo_tool(std::move(name));
  t.handler = nullptr;
  t.async_handler = std::move(handler);
  return t;
}

json call(in_process_client& c, const std::string& name, const std::string& text = "x") {
  return c.request("tools/call", {{"name", name}, {"arguments", text_args(text)}});
}

std::string text_of(const json& response) { return response["result"]["content"][0]["text"].get<std::string>(); }

// A reply the test holds, to answer when it chooses (from its own thread).
struct held_reply {
  std::mutex mtx;
  std::condition_variable cv;
  std::optional<tool_reply> reply;

  bool wait(std::chrono::milliseconds limit = 10s) {
    std::unique_lock<std::mutex> g(mtx);
    return cv.wait_for(g, limit, [&] { return reply.has_value(); });
  }
  void keep(tool_reply r) {
    std::lock_guard<std::mutex> g(mtx);
    reply = std::move(r);
    cv.notify_all();
  }
};

// Tool `later`: keeps its reply in `held` and answers nothing itself.
tool holding(std::shared_ptr<held_reply> held) {
  return async_tool("later", [held](const json&, request_context&, tool_reply reply) { held->keep(std::move(reply)); });
}

TEST(AsyncTools, AMutationsCallbackAnswersTheCallAfterItsNotification) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "v0"))));
  server* s = &srv;
  ASSERT_TRUE(applied(srv.add_tool(async_tool("update", [s](const json& args, request_context&, tool_reply reply) {
    auto text = args.at("text").get<std::string>();
    s->set_resource_contents("mem://a", {resource_contents::make_text("mem://a", text, "text/plain")},
                             [reply, text](bool changed) {
                               reply(changed ? tool_result::text("now " + text) : tool_result::error("unchanged"));
                             });
  }))));
  in_process_client c(srv);
  c.initialize();
  c.request("resources/subscribe", {{"uri", "mem://a"}});
  for (int i = 0; i < 20; ++i) {
    auto [before, response] = call_with_progress(c, "update", i);
    ASSERT_EQ(text_of(response), "now x") << response.dump();
    // The notification was handed out before the mutation's end was told.
    ASSERT_EQ(before.size(), 1u);
    EXPECT_TRUE(is_method(before[0], "notifications/resources/updated"));
  }
  EXPECT_EQ(c.request("resources/read", {{"uri", "mem://a"}})["result"]["contents"][0]["text"], "x");
  EXPECT_EQ(handler_threads(srv), 0u); // no thread ever waited for a result
}

TEST(AsyncTools, AMutationThatChangesNothingIsToldFalse) {
  server srv(all_on());
  server* s = &srv;
  ASSERT_TRUE(applied(srv.add_tool(async_tool("update", [s](const json&, request_context&, tool_reply reply) {
    s->set_resource_contents("mem://nowhere", {resource_contents::make_text("mem://nowhere", "v", "text/plain")},
                             [reply](bool changed) {
                               reply(changed ? tool_result::text("changed") : tool_result::error("no such resource"));
                             });
  }))));
  in_process_client c(srv);
  c.initialize();
  auto r = call(c, "update");
  EXPECT_EQ(r["result"]["isError"], true);
  EXPECT_EQ(text_of(r), "no such resource");
}

TEST(AsyncTools, TheCallWaitsForItsReplyWhileTheSessionServesOtherRequests) {
  server srv(all_on());
  auto held = std::make_shared<held_reply>();
  ASSERT_TRUE(applied(srv.add_tool(holding(held))));
  in_process_client c(srv);
  c.initialize();
  c.send(call_message("pending", "later"));
  ASSERT_TRUE(held->wait());
  // Unanswered, the call holds nothing up: the session answers a ping.
  EXPECT_EQ(c.request("ping")["result"], json::object());
  EXPECT_TRUE(c.take([](const json& m) { return m.value("id", json()) == "pending"; }).empty());
  std::thread answerer([held] { (*held->reply)(tool_result::text("from another thread")); });
  answerer.join();
  auto response = response_to(c, "pending");
  ASSERT_TRUE(response);
  EXPECT_EQ(text_of(*response), "from another thread");
}

TEST(AsyncTools, OnlyTheFirstAnswerCounts) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(async_tool("twice", [](const json&, request_context&, tool_reply reply) {
    auto copy = reply;
    reply(tool_result::text("first"));
    copy(tool_result::text("second"));
    reply(tool_result::text("third"));
  }))));
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(text_of(call(c, "twice")), "first");
  c.request("ping"); // anything else sent for the call would be queued by now
  EXPECT_TRUE(c.take([](const json& m) { return m.contains("result") && m["result"].contains("content"); }).empty());
}

TEST(AsyncTools, AReplyDroppedUnansweredAnswersWithAToolError) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(async_tool("forgetful", [](const json&, request_context&, tool_reply) {}))));
  in_process_client c(srv);
  c.initialize();
  auto r = call(c, "forgetful");
  EXPECT_EQ(r["result"]["isError"], true);
  EXPECT_NE(text_of(r).find("without answering"), std::string::npos) << r.dump();
}

TEST(AsyncTools, ThrowingBeforeAnsweringIsAToolErrorAndAfterItChangesNothing) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(async_tool("throws", [](const json& args, request_context&, tool_reply reply) {
    if (args.at("text") == "after")
      reply(tool_result::text("answered first"));
    throw std::runtime_error("broke");
  }))));
  ASSERT_TRUE(applied(srv.add_tool(async_tool("refuses", [](const json&, request_context&, tool_reply) {
    throw request_refused{-32050, "not now", std::nullopt};
  }))));
  in_process_client c(srv);
  c.initialize();
  auto before = call(c, "throws", "before");
  EXPECT_EQ(before["result"]["isError"], true);
  EXPECT_NE(text_of(before).find("broke"), std::string::npos) << before.dump();
  EXPECT_EQ(text_of(call(c, "throws", "after")), "answered first");
  auto refused = call(c, "refuses");
  EXPECT_EQ(refused["error"]["code"], -32050) << refused.dump();
  EXPECT_EQ(c.request("ping")["result"], json::object());
}

TEST(AsyncTools, ResultsAreCheckedAgainstTheOutputSchema) {
  server srv(all_on());
  auto t = async_tool("shaped", [](const json& args, request_context&, tool_reply reply) {
    reply(args.at("text") == "good" ? tool_result::structured({{"n", 1}}) : tool_result::structured({{"n", "one"}}));
  });
  t.output_schema = json{{"type", "object"}, {"properties", {{"n", {{"type", "integer"}}}}}, {"required", {"n"}}};
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(call(c, "shaped", "good")["result"]["structuredContent"]["n"], 1);
  EXPECT_EQ(call(c, "shaped", "bad")["result"]["isError"], true);
}

TEST(AsyncTools, ProgressSentBeforeTheReplyArrivesBeforeIt) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(async_tool("chatty", [](const json&, request_context& ctx, tool_reply reply) {
    ctx.progress(1, 2);
    ctx.progress(2, 2);
    reply(tool_result::text("done"));
  }))));
  in_process_client c(srv);
  c.initialize();
  auto [before, response] = call_with_progress(c, "chatty", "p");
  EXPECT_EQ(text_of(response), "done");
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(before[1]["params"]["progress"], 2);
}

TEST(AsyncTools, RunOnAWorkerWhenTheServerRunsNoHandlerInline) {
  auto o = all_on();
  o.inline_quick_handlers = false;
  server srv(o);
  ASSERT_TRUE(applied(srv.add_tool(async_tool("echo", [](const json& args, request_context&, tool_reply reply) {
    reply(tool_result::text(args.at("text").get<std::string>()));
  }))));
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(text_of(call(c, "echo", "on a worker")), "on a worker");
  EXPECT_EQ(handler_threads(srv), 1u);
}

TEST(AsyncTools, AReplyAfterTheSessionEndedGoesNowhereAndShutdownGoesOn) {
  auto held = std::make_shared<held_reply>();
  {
    server srv(all_on());
    ASSERT_TRUE(applied(srv.add_tool(holding(held))));
    in_process_client c(srv);
    c.initialize();
    c.send(call_message("pending", "later"));
    ASSERT_TRUE(held->wait());
    c.close();
    (*held->reply)(tool_result::text("too late"));
    held->reply.reset();
  } // the server's shutdown would wait for an unanswered call: it was answered
  SUCCEED();
}

TEST(AsyncTools, AddToolRefusesAnAsyncTaskAndTwoHandlers) {
  server srv(all_on());
  auto task = async_tool("as_task", [](const json&, request_context&, tool_reply) {});
  task.tasks = task_support::optional;
  EXPECT_FALSE(applied(srv.add_tool(task)));
  auto both = async_tool("both", [](const json&, request_context&, tool_reply) {});
  both.handler = [](const json&, request_context&) { return tool_result::text("sync"); };
  EXPECT_FALSE(applied(srv.add_tool(both)));
}

TEST(MutationCallbacks, EveryFormTellsWhetherItApplied) {
  server srv(all_on());
  // Told from the server actor (nothing changed) or the notifier (once the
  // change is out): in any order, from either thread.
  struct record {
    std::mutex mtx;
    std::vector<std::optional<bool>> told = std::vector<std::optional<bool>>(11);
    int count = 0;
    std::promise<void> all;
  };
  auto rec = std::make_shared<record>();
  int next = 0;
  auto slot = [rec, &next] {
    return [rec, i = next++](bool v) {
      std::lock_guard<std::mutex> g(rec->mtx);
      rec->told[static_cast<std::size_t>(i)] = v;
      if (++rec->count == 11)
        rec->all.set_value();
    };
  };
  auto all = rec->all.get_future();
  srv.add_resource(text_resource("mem://b", "b", "v"), slot());
  srv.set_resource_contents("mem://b", {resource_contents::make_text("mem://b", "w", "text/plain")}, slot());
  srv.set_resource_contents("mem://none", {resource_contents::make_text("mem://none", "w", "text/plain")}, slot());
  srv.add_tool(echo_tool("t"), slot());
  srv.remove_tool("t", slot());
  srv.remove_tool("t", slot());
  srv.add_prompt(simple_prompt("p"), slot());
  srv.remove_prompt("p", slot());
  resource_template rt;
  rt.uri_template = "mem://t/{x}";
  rt.name = "t";
  srv.add_resource_template(rt, slot());
  srv.remove_resource_template("mem://t/{x}", slot());
  srv.remove_resource("mem://b", slot());
  ASSERT_EQ(all.wait_for(10s), std::future_status::ready);
  std::lock_guard<std::mutex> g(rec->mtx);
  std::vector<bool> told;
  for (auto& t : rec->told)
    told.push_back(t.value());
  EXPECT_EQ(told, (std::vector<bool>{true, true, false, true, true, false, true, true, true, true, true}));
}

TEST(MutationEnd, LostUnsettledACallbackIsToldFalseAndAPromiseBreaks) {
  std::optional<bool> told;
  { actors::mutation_end lost([&](bool v) { told = v; }); }
  EXPECT_EQ(told, false);
  std::promise<bool> p;
  auto f = p.get_future();
  { actors::mutation_end lost(std::move(p)); }
  EXPECT_THROW(f.get(), std::future_error);
  told.reset();
  {
    actors::mutation_end settled([&](bool v) { told = v; });
    settled.settle(true);
    settled.settle(false); // once
  }
  EXPECT_EQ(told, true);
}

} // namespace
} // namespace cafmcp::test

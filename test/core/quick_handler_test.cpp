// Quick handlers (tool::quick, and the same flag on resources, resource
// templates and prompts): run by their session's actor, with no thread of
// the handler pool, yet answered as every other handler is: progress and
// log messages before the result, validation, failures as isError, and no
// waiting on the client.
#include "actors/server_access.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

std::size_t handler_threads(server& srv) { return server_access::of(srv).rt->workers->threads(); }

tool quick_echo(std::string name) {
  auto t = echo_tool(std::move(name));
  t.quick = true;
  return t;
}

json call(in_process_client& c, const std::string& name, const std::string& text) {
  return c.request("tools/call", {{"name", name}, {"arguments", {{"text", text}}}});
}

TEST(QuickHandlers, RunWithoutAHandlerThread) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(quick_echo("quick"))));
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("threaded"))));
  in_process_client c(srv);
  c.initialize();
  for (int i = 0; i < 20; ++i)
    EXPECT_EQ(call(c, "quick", "q" + std::to_string(i))["result"]["content"][0]["text"],
              "q" + std::to_string(i));
  EXPECT_EQ(handler_threads(srv), 0u);
  EXPECT_EQ(call(c, "threaded", "t")["result"]["content"][0]["text"], "t");
  EXPECT_EQ(handler_threads(srv), 1u); // the pool's thread stays a while after its call
}

TEST(QuickHandlers, RunOnThreadsOfTheirOwnWhenTheServerSaysSo) {
  auto o = all_on();
  o.inline_quick_handlers = false;
  server srv(o);
  ASSERT_TRUE(applied(srv.add_tool(quick_echo("quick"))));
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(call(c, "quick", "x")["result"]["content"][0]["text"], "x");
  EXPECT_EQ(handler_threads(srv), 1u);
}

TEST(QuickHandlers, ProgressAndLogMessagesComeBeforeTheResult) {
  server srv(all_on());
  auto t = quick_echo("chatty");
  t.handler = [](const json&, request_context& ctx) {
    ctx.progress(1, 3);
    ctx.log(log_level::warning, "midway");
    ctx.progress(2, 3);
    ctx.progress(3, 3);
    return tool_result::text("done");
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  auto [before, response] = call_with_progress(c, "chatty", 9);
  EXPECT_EQ(response["result"]["content"][0]["text"], "done") << response.dump();
  std::vector<std::string> seen;
  for (auto& m : before)
    seen.push_back(m["method"].get<std::string>()
                   + (m["method"] == "notifications/progress"
                        ? " " + std::to_string(m["params"]["progress"].get<int>())
                        : ""));
  EXPECT_EQ(seen, (std::vector<std::string>{"notifications/progress 1", "notifications/message",
                                            "notifications/progress 2", "notifications/progress 3"}));
}

TEST(QuickHandlers, AskingTheClientFailsAtOnceAndSendsNothing) {
  server srv(all_on());
  auto t = quick_echo("asks");
  t.handler = [](const json&, request_context& ctx) {
    try {
      ctx.request("roots/list", json::object());
      return tool_result::text("answered");
    } catch (const client_request_error& e) {
      return tool_result::error(e.what());
    }
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize({{"roots", json::object()}});
  auto r = call(c, "asks", "x")["result"];
  EXPECT_EQ(r["isError"], true);
  EXPECT_NE(r["content"][0]["text"].get<std::string>().find("quick handler cannot ask"), std::string::npos);
  c.request("ping");
  EXPECT_TRUE(c.take([](const json& m) { return is_method(m, "roots/list"); }).empty());
}

TEST(QuickHandlers, FailuresAndBadArgumentsAreToolErrors) {
  server srv(all_on());
  auto t = quick_echo("fragile");
  t.handler = [](const json& args, request_context&) -> tool_result {
    throw std::runtime_error("broke on " + args.at("text").get<std::string>());
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  auto thrown = call(c, "fragile", "purpose")["result"];
  EXPECT_EQ(thrown["isError"], true);
  EXPECT_NE(thrown["content"][0]["text"].get<std::string>().find("broke on purpose"), std::string::npos);
  auto bad = c.request("tools/call", {{"name", "fragile"}, {"arguments", {{"text", 5}}}})["result"];
  EXPECT_EQ(bad["isError"], true);
  // The session goes on serving.
  EXPECT_EQ(c.request("ping")["result"], json::object());
}

TEST(QuickHandlers, QuickReadersAndPromptsRunWithoutAHandlerThreadToo) {
  server srv(all_on());
  auto r = text_resource("mem://quick", "quick", "unused");
  r.contents.clear();
  r.reader = [](const std::string& uri, request_context&) {
    return std::vector<resource_contents>{resource_contents::make_text(uri, "read " + uri, "text/plain")};
  };
  r.quick = true;
  ASSERT_TRUE(applied(srv.add_resource(r)));
  resource_template t;
  t.uri_template = "mem://items/{id}";
  t.name = "items";
  t.reader = r.reader;
  t.quick = true;
  ASSERT_TRUE(applied(srv.add_resource_template(t)));
  auto p = simple_prompt("quick-prompt");
  p.quick = true;
  ASSERT_TRUE(applied(srv.add_prompt(p)));
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(c.request("resources/read", {{"uri", "mem://quick"}})["result"]["contents"][0]["text"],
            "read mem://quick");
  EXPECT_EQ(c.request("resources/read", {{"uri", "mem://items/7"}})["result"]["contents"][0]["text"],
            "read mem://items/7");
  EXPECT_TRUE(c.request("prompts/get", {{"name", "quick-prompt"}})["result"].contains("messages"));
  EXPECT_EQ(handler_threads(srv), 0u);
  // The same reader without the flag gets a thread.
  r.uri = "mem://slow";
  r.quick = false;
  ASSERT_TRUE(applied(srv.add_resource(r)));
  EXPECT_EQ(c.request("resources/read", {{"uri", "mem://slow"}})["result"]["contents"][0]["text"],
            "read mem://slow");
  EXPECT_EQ(handler_threads(srv), 1u);
}

} // namespace
} // namespace cafmcp::test

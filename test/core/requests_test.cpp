// Requests through a real session: pagination, tool input and output
// checks, handler failures, progress, cancellation, logging, completion and
// server->client requests.
#include <atomic>
#include <thread>

#include "support.hpp"

namespace cafmcp::test {
namespace {

json result_of(const json& reply) {
  EXPECT_TRUE(reply.contains("result")) << reply.dump();
  return reply.value("result", json::object());
}

int error_code(const json& reply) {
  EXPECT_TRUE(reply.contains("error")) << reply.dump();
  return reply.contains("error") ? reply["error"]["code"].get<int>() : 0;
}

TEST(Requests, PaginationFollowsCursorsThroughEveryItem) {
  auto o = all_on();
  o.page_size = 2;
  server srv(o);
  for (int i = 0; i < 5; ++i)
    ASSERT_TRUE(applied(srv.add_tool(echo_tool("t" + std::to_string(i)))));
  in_process_client c(srv);
  c.initialize();
  std::vector<std::string> names;
  json params = json::object();
  for (int page = 0; page < 10; ++page) {
    auto r = result_of(c.request("tools/list", params));
    EXPECT_LE(r["tools"].size(), 2u);
    for (auto& t : r["tools"])
      names.push_back(t["name"]);
    if (!r.contains("nextCursor"))
      break;
    params = {{"cursor", r["nextCursor"]}};
  }
  EXPECT_EQ(names, (std::vector<std::string>{"t0", "t1", "t2", "t3", "t4"}));
}

TEST(Requests, CursorsStayValidWhileTheListChanges) {
  auto o = all_on();
  o.page_size = 2;
  server srv(o);
  for (auto n : {"a", "b", "c", "d"})
    ASSERT_TRUE(applied(srv.add_tool(echo_tool(n))));
  in_process_client c(srv);
  c.initialize();
  auto first = result_of(c.request("tools/list"));
  ASSERT_TRUE(first.contains("nextCursor"));
  ASSERT_TRUE(applied(srv.remove_tool("b")));          // already seen
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("bb")))); // sorts after the cursor
  auto second = result_of(c.request("tools/list", {{"cursor", first["nextCursor"]}}));
  std::vector<std::string> names;
  for (auto& t : second["tools"])
    names.push_back(t["name"]);
  EXPECT_EQ(names, (std::vector<std::string>{"bb", "c"}));
}

TEST(Requests, BadCursorIsInvalidParams) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("a"))));
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(error_code(c.request("tools/list", {{"cursor", "not-a-cursor!"}})), -32602);
  auto r = result_of(c.request("prompts/list"));
  EXPECT_TRUE(r["prompts"].empty());
}

TEST(Requests, ToolArgumentsFailingTheSchemaGiveAnIsErrorResult) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  in_process_client c(srv);
  c.initialize();
  auto r = result_of(c.request("tools/call", {{"name", "echo"}, {"arguments", {{"text", 5}}}}));
  EXPECT_EQ(r["isError"], true);
  EXPECT_NE(r["content"][0]["text"].get<std::string>().find("text"), std::string::npos);
  auto missing = result_of(c.request("tools/call", {{"name", "echo"}}));
  EXPECT_EQ(missing["isError"], true);
}

TEST(Requests, UnknownToolIsInvalidParams) {
  server srv(all_on());
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(error_code(c.request("tools/call", {{"name", "nope"}})), -32602);
}

TEST(Requests, AThrowingHandlerGivesAnIsErrorResult) {
  server srv(all_on());
  tool t = echo_tool("boom");
  t.handler = [](const json&, request_context&) -> tool_result { throw std::runtime_error("kaput"); };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  auto r = result_of(c.request("tools/call", {{"name", "boom"}, {"arguments", {{"text", "x"}}}}));
  EXPECT_EQ(r["isError"], true);
  EXPECT_NE(r["content"][0]["text"].get<std::string>().find("kaput"), std::string::npos);
}

TEST(Requests, AHandlerThrowingANonStandardExceptionFailsOnlyItsRequest) {
  server srv(all_on());
  for (bool quick : {false, true}) {
    tool t = echo_tool(quick ? "odd-quick" : "odd");
    t.quick = quick;
    t.handler = [](const json&, request_context&) -> tool_result { throw 42; };
    ASSERT_TRUE(applied(srv.add_tool(t)));
  }
  in_process_client c(srv);
  c.initialize();
  for (auto name : {"odd", "odd-quick"}) {
    auto reply = c.request("tools/call", {{"name", name}, {"arguments", {{"text", "x"}}}});
    EXPECT_EQ(error_code(reply), -32603) << name;
  }
  EXPECT_EQ(result_of(c.request("ping")), json::object()); // process and session still serve
}

TEST(Requests, StructuredContentIsCheckedAgainstTheOutputSchema) {
  server srv(all_on());
  tool t = echo_tool("sum");
  t.output_schema =
    json{{"type", "object"}, {"properties", {{"total", {{"type", "integer"}}}}}, {"required", {"total"}}};
  t.handler = [](const json& args, request_context&) {
    if (args.at("text") == "good")
      return tool_result::structured({{"total", 3}});
    return tool_result::structured({{"total", "three"}});
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  auto good = result_of(c.request("tools/call", {{"name", "sum"}, {"arguments", {{"text", "good"}}}}));
  EXPECT_EQ(good["structuredContent"]["total"], 3);
  EXPECT_FALSE(good.contains("isError"));
  auto bad = result_of(c.request("tools/call", {{"name", "sum"}, {"arguments", {{"text", "bad"}}}}));
  EXPECT_EQ(bad["isError"], true);
}

TEST(Requests, AnInvalidToolIsRefusedAtRegistration) {
  server srv(all_on());
  auto t = echo_tool("has space");
  EXPECT_FALSE(applied(srv.add_tool(t)));
  auto u = echo_tool("ok");
  u.input_schema = "not a schema";
  EXPECT_FALSE(applied(srv.add_tool(u)));
}

TEST(Requests, ProgressIsSentBeforeTheResultAndOnlyIncreasing) {
  server srv(all_on());
  tool t = echo_tool("slow");
  t.handler = [](const json&, request_context& ctx) {
    ctx.progress(0, 100);
    ctx.progress(50, 100, "half");
    ctx.progress(40, 100); // dropped: progress must increase
    ctx.progress(100, 100);
    return tool_result::text("done");
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  auto [before, response] = call_with_progress(c, "slow", "tok");
  EXPECT_EQ(response["result"]["content"][0]["text"], "done") << response.dump();
  std::vector<double> seen;
  for (auto& m : before) {
    ASSERT_EQ(m["method"], "notifications/progress");
    EXPECT_EQ(m["params"]["progressToken"], "tok");
    seen.push_back(m["params"]["progress"]);
  }
  EXPECT_EQ(seen, (std::vector<double>{0, 50, 100}));
}

TEST(Requests, ACancelledRequestGetsNoResponse) {
  server srv(all_on());
  auto started = std::make_shared<std::promise<void>>();
  auto release = std::make_shared<std::promise<void>>();
  auto released = release->get_future().share();
  auto saw_cancel = std::make_shared<std::promise<bool>>();
  tool t = echo_tool("wait");
  t.handler = [started, released, saw_cancel](const json&, request_context& ctx) {
    started->set_value();
    released.wait();
    saw_cancel->set_value(ctx.cancelled());
    return tool_result::text("finished");
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  c.send({{"jsonrpc", "2.0"},
          {"id", 41},
          {"method", "tools/call"},
          {"params", {{"name", "wait"}, {"arguments", {{"text", "x"}}}}}});
  ASSERT_EQ(started->get_future().wait_for(10s), std::future_status::ready);
  c.notify("notifications/cancelled", {{"requestId", 41}, {"reason", "user"}});
  EXPECT_EQ(result_of(c.request("ping")), json::object()); // cancellation processed
  release->set_value();
  EXPECT_TRUE(saw_cancel->get_future().get()); // the handler could see it and stop
  // Its result, sent right after, is dropped by the session: two more round
  // trips later nothing for id 41 has arrived.
  c.request("ping");
  c.request("ping");
  EXPECT_TRUE(c.take([](const json& m) { return m.value("id", json()) == 41; }).empty());
}

TEST(Requests, LoggingFollowsTheSessionLevel) {
  server srv(all_on());
  tool t = echo_tool("talk");
  t.handler = [](const json&, request_context& ctx) {
    ctx.log(log_level::debug, "d");
    ctx.log(log_level::warning, "w", "cafmcp-test");
    return tool_result::text("ok");
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(error_code(c.request("logging/setLevel", {{"level", "loud"}})), -32602);
  c.request("tools/call", {{"name", "talk"}, {"arguments", {{"text", "x"}}}});
  auto at_info = c.take([](const json& m) { return is_method(m, "notifications/message"); });
  ASSERT_EQ(at_info.size(), 1u); // default level info: debug is filtered
  EXPECT_EQ(at_info[0]["params"]["level"], "warning");
  EXPECT_EQ(at_info[0]["params"]["logger"], "cafmcp-test");
  EXPECT_EQ(result_of(c.request("logging/setLevel", {{"level", "debug"}})), json::object());
  c.request("tools/call", {{"name", "talk"}, {"arguments", {{"text", "x"}}}});
  EXPECT_EQ(c.take([](const json& m) { return is_method(m, "notifications/message"); }).size(), 2u);
}

TEST(Requests, AHandlerCanAskTheClientAndGetsItsAnswer) {
  server srv(all_on());
  tool t = echo_tool("ask");
  t.handler = [](const json&, request_context& ctx) {
    auto answer = ctx.request("sampling/createMessage", {{"maxTokens", 10}});
    return tool_result::text(answer["content"]["text"].get<std::string>());
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize({{"sampling", json::object()}});
  c.send({{"jsonrpc", "2.0"},
          {"id", 7},
          {"method", "tools/call"},
          {"params", {{"name", "ask"}, {"arguments", {{"text", "x"}}}}}});
  auto ask = c.wait_for_method("sampling/createMessage");
  ASSERT_TRUE(ask);
  ASSERT_TRUE(ask->contains("id"));
  c.send({{"jsonrpc", "2.0"},
          {"id", (*ask)["id"]},
          {"result", {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "sampled"}}}}}});
  auto reply = c.wait_for([](const json& m) { return m.value("id", json()) == 7; });
  ASSERT_TRUE(reply);
  EXPECT_EQ((*reply)["result"]["content"][0]["text"], "sampled");
}

TEST(Requests, AClientErrorAnswerBecomesAToolError) {
  server srv(all_on());
  tool t = echo_tool("ask");
  t.handler = [](const json&, request_context& ctx) {
    ctx.request("elicitation/create", {{"message", "?"}});
    return tool_result::text("unreachable");
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  c.send({{"jsonrpc", "2.0"},
          {"id", 8},
          {"method", "tools/call"},
          {"params", {{"name", "ask"}, {"arguments", {{"text", "x"}}}}}});
  auto ask = c.wait_for_method("elicitation/create");
  ASSERT_TRUE(ask);
  c.send({{"jsonrpc", "2.0"}, {"id", (*ask)["id"]}, {"error", {{"code", -1}, {"message", "declined"}}}});
  auto reply = c.wait_for([](const json& m) { return m.value("id", json()) == 8; });
  ASSERT_TRUE(reply);
  EXPECT_EQ((*reply)["result"]["isError"], true);
  EXPECT_NE((*reply)["result"]["content"][0]["text"].get<std::string>().find("declined"), std::string::npos);
}

TEST(Requests, AnUnansweredClientRequestTimesOutAndIsCancelled) {
  auto o = all_on();
  server srv(o);
  tool t = echo_tool("ask");
  t.handler = [](const json&, request_context& ctx) {
    ctx.request("roots/list", json::object(), std::chrono::milliseconds(50));
    return tool_result::text("unreachable");
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  auto reply = c.request("tools/call", {{"name", "ask"}, {"arguments", {{"text", "x"}}}});
  EXPECT_EQ(result_of(reply)["isError"], true);
  auto cancelled = c.wait_for_method("notifications/cancelled");
  ASSERT_TRUE(cancelled);
  EXPECT_TRUE((*cancelled)["params"]["requestId"].is_string());
}

// max_concurrent_calls_per_session: one call over the limit is refused
// at once with a JSON-RPC error naming the limit; the calls in flight, other
// sessions and later calls are unaffected.
TEST(Requests, ACallOverTheSessionsConcurrencyLimitIsRefused) {
  auto o = all_on();
  o.max_concurrent_calls_per_session = 2;
  server srv(o);
  held_tool hold;
  ASSERT_TRUE(applied(srv.add_tool(hold.make())));
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  in_process_client c(srv), other(srv);
  c.initialize();
  other.initialize();
  c.send(call_message("h1", "hold"));
  c.send(call_message("h2", "hold"));
  ASSERT_TRUE(hold.wait_started(2));
  auto over = c.request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "x"}}}});
  ASSERT_EQ(error_code(over), -32603);
  EXPECT_NE(over["error"]["message"].get<std::string>().find("limit 2"), std::string::npos) << over.dump();
  EXPECT_EQ(result_of(c.request("ping")), json::object()); // not a call: answered
  auto elsewhere = other.request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "y"}}}});
  EXPECT_EQ(result_of(elsewhere)["content"][0]["text"], "y"); // the limit is per session
  hold.release();
  for (auto id : {"h1", "h2"}) {
    auto held = response_to(c, id);
    ASSERT_TRUE(held) << id;
    EXPECT_EQ(result_of(*held)["content"][0]["text"], "held x");
  }
  auto after = c.request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "z"}}}});
  EXPECT_EQ(result_of(after)["content"][0]["text"], "z"); // their slots are free again
}

TEST(Requests, SlowToolsDoNotDelayNotificationsOrOtherRequests) {
  server srv(all_on());
  auto release = std::make_shared<std::promise<void>>();
  auto released = release->get_future().share();
  tool t = echo_tool("stuck");
  t.handler = [released](const json&, request_context&) {
    released.wait();
    return tool_result::text("late");
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  c.initialize();
  c.send({{"jsonrpc", "2.0"},
          {"id", "s"},
          {"method", "tools/call"},
          {"params", {{"name", "stuck"}, {"arguments", {{"text", "x"}}}}}});
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("fresh"))));
  EXPECT_TRUE(c.wait_for_method("notifications/tools/list_changed"));
  EXPECT_TRUE(c.request("tools/list").contains("result"));
  release->set_value();
  EXPECT_TRUE(c.wait_for([](const json& m) { return m.value("id", json()) == "s"; }));
}

TEST(Requests, ResourcesReadStaticTemplateAndMissing) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  resource_template t;
  t.uri_template = "mem://item/{id}";
  t.name = "item";
  t.reader = [](const std::string& uri, request_context&) {
    auto vars = uri_template("mem://item/{id}").match(uri);
    if (vars->at("id") == "0")
      throw resource_not_found_error(uri);
    return std::vector<resource_contents>{resource_contents::make_text(uri, "item " + vars->at("id"))};
  };
  t.completions["id"] = [](const std::string& partial, const std::map<std::string, std::string>&) {
    return std::vector<std::string>{partial + "1", partial + "2"};
  };
  ASSERT_TRUE(applied(srv.add_resource_template(t)));
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(result_of(c.request("resources/read", {{"uri", "mem://a"}}))["contents"][0]["text"], "A");
  EXPECT_EQ(result_of(c.request("resources/read", {{"uri", "mem://item/42"}}))["contents"][0]["text"],
            "item 42");
  auto missing = c.request("resources/read", {{"uri", "mem://item/0"}});
  EXPECT_EQ(error_code(missing), -32002);
  EXPECT_EQ(missing["error"]["data"]["uri"], "mem://item/0");
  EXPECT_EQ(error_code(c.request("resources/read", {{"uri", "other://x"}})), -32002);
  auto templates = result_of(c.request("resources/templates/list"));
  EXPECT_EQ(templates["resourceTemplates"][0]["uriTemplate"], "mem://item/{id}");
  auto completion = result_of(
    c.request("completion/complete", {{"ref", {{"type", "ref/resource"}, {"uri", "mem://item/{id}"}}},
                                      {"argument", {{"name", "id"}, {"value", "4"}}}}));
  EXPECT_EQ(completion["completion"]["values"], (json{"41", "42"}));
}

TEST(Requests, PromptsCheckRequiredArguments) {
  server srv(all_on());
  prompt p = simple_prompt("greet");
  p.arguments.push_back({"who", std::nullopt, std::nullopt, true, {}});
  ASSERT_TRUE(applied(srv.add_prompt(p)));
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(error_code(c.request("prompts/get", {{"name", "greet"}})), -32602);
  EXPECT_EQ(error_code(c.request("prompts/get", {{"name", "nope"}})), -32602);
  auto ok = result_of(c.request("prompts/get", {{"name", "greet"}, {"arguments", {{"who", "x"}}}}));
  EXPECT_EQ(ok["messages"][0]["role"], "user");
}

} // namespace
} // namespace cafmcp::test

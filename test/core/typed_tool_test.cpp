// Typed tools and prompts: what they declare, how their handlers convert,
// and the same calls through a real server (input checks, structured output,
// prompt arguments), answered as the untyped path answers.
#include <atomic>

#include "cafmcp/typed_prompt.hpp"
#include "cafmcp/typed_tool.hpp"

#include "foundation/schema_validator.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

json result_of(const json& reply) {
  EXPECT_TRUE(reply.contains("result")) << reply.dump();
  return reply.value("result", json::object());
}

struct weather_args {
  std::string city;
  std::optional<int> days;
};
CAFMCP_FIELDS(weather_args, (city, "City name"), (days, "Forecast days, 1-7"));

struct forecast {
  std::string city;
  std::vector<double> highs;
};
CAFMCP_FIELDS(forecast, (city), (highs, "Daily highs"));

// Handlers never touch the context here; none is ever dereferenced.
request_context& no_context() {
  static request_context ctx(nullptr);
  return ctx;
}

TEST(TypedTool, DeclaresTheDerivedSchemasAndConvertsItsArguments) {
  auto t = typed_tool("weather", "Forecast for a city", [](const weather_args& a) {
    return a.city + " " + std::to_string(a.days.value_or(1));
  });
  EXPECT_EQ(t.name, "weather");
  EXPECT_EQ(t.description, "Forecast for a city");
  EXPECT_EQ(t.input_schema, json_schema_of<weather_args>());
  EXPECT_FALSE(t.output_schema);
  auto r = t.handler({{"city", "Oslo"}, {"days", 3}}, no_context());
  EXPECT_EQ(r.to_json(), tool_result::text("Oslo 3").to_json());
}

TEST(TypedTool, AStructResultIsStructuredContentMatchingTheOutputSchema) {
  auto t = typed_tool<weather_args>("forecast", "Highs", [](const weather_args& a, request_context&) {
    return forecast{a.city, std::vector<double>(a.days.value_or(2), 20.5)};
  });
  ASSERT_TRUE(t.output_schema);
  EXPECT_EQ(*t.output_schema, json_schema_of<forecast>());
  auto r = t.handler({{"city", "Oslo"}}, no_context());
  json expected = {{"city", "Oslo"}, {"highs", {20.5, 20.5}}};
  ASSERT_TRUE(r.structured_content);
  EXPECT_EQ(*r.structured_content, expected);
  EXPECT_EQ(r.content, tool_result::structured(expected).content); // and its text form
  EXPECT_EQ(schema_validator(*t.output_schema).validate(*r.structured_content), std::nullopt);
}

TEST(TypedTool, AValueTheTypeCannotHoldIsAnIsErrorResult) {
  bool called = false;
  auto t = typed_tool("weather", "", [&](const weather_args&) {
    called = true;
    return tool_result::text("no");
  });
  auto r = t.handler({{"city", "Oslo"}, {"days", 1e10}}, no_context());
  EXPECT_FALSE(called);
  EXPECT_TRUE(r.is_error);
  EXPECT_EQ(r.content[0]["text"], "Invalid arguments for tool weather: /days: 10000000000.0 does not fit");
}

struct review_args {
  std::string code;
  std::optional<std::string> focus;
};
CAFMCP_FIELDS(review_args, (code, "The code to review"), (focus));

TEST(TypedPrompt, FieldsBecomeArgumentsAndTheHandlerGetsThem) {
  auto p = typed_prompt("review", "Asks for a review", [](const review_args& a) {
    return "Review " + a.code + (a.focus ? " for " + *a.focus : std::string());
  });
  EXPECT_EQ(p.descriptor()["arguments"],
            (json{{{"name", "code"}, {"description", "The code to review"}, {"required", true}},
                  {{"name", "focus"}, {"required", false}}}));
  auto r = p.handler({{"code", "x()"}, {"focus", "names"}}, no_context()).to_json();
  EXPECT_EQ(r["messages"],
            (json{{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Review x() for names"}}}}}));
  r = p.handler({{"code", "y()"}}, no_context()).to_json();
  EXPECT_EQ(r["messages"][0]["content"]["text"], "Review y()");
}

// -- through a server --------------------------------------------------------

TEST(TypedTool, ListedWithItsDerivedSchemas) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(typed_tool("forecast", "Highs", [](const weather_args& a) {
    return forecast{a.city, {}};
  }))));
  in_process_client c(srv);
  c.initialize();
  auto listed = result_of(c.request("tools/list"))["tools"][0];
  EXPECT_EQ(listed["inputSchema"], json_schema_of<weather_args>());
  EXPECT_EQ(listed["outputSchema"], json_schema_of<forecast>());
}

TEST(TypedTool, InvalidArgumentsGetTheUntypedPathsError) {
  // The same schema by hand, on an untyped tool: both answers must match.
  server srv(all_on());
  std::atomic<bool> typed_called = false; // set on a handler thread
  ASSERT_TRUE(applied(srv.add_tool(typed_tool("typed", "", [&](const weather_args&) {
    typed_called = true;
    return "ran";
  }))));
  tool untyped;
  untyped.name = "untyped";
  untyped.input_schema = json_schema_of<weather_args>();
  untyped.handler = [](const json&, request_context&) { return tool_result::text("ran"); };
  ASSERT_TRUE(applied(srv.add_tool(untyped)));
  in_process_client c(srv);
  c.initialize();
  auto reason = [](const json& result) { // what follows "Invalid arguments for tool NAME"
    auto text = result["content"][0]["text"].get<std::string>();
    return text.substr(text.find(':'));
  };
  for (json args : {json{{"city", 5}}, json{{"days", 2}}, json{{"city", "Oslo"}, {"days", "two"}},
                    json{{"city", "Oslo"}, {"dayz", 2}}}) {
    auto typed = result_of(c.request("tools/call", {{"name", "typed"}, {"arguments", args}}));
    auto plain = result_of(c.request("tools/call", {{"name", "untyped"}, {"arguments", args}}));
    EXPECT_EQ(typed["isError"], true) << args.dump();
    auto text = typed["content"][0]["text"].get<std::string>();
    EXPECT_EQ(text.rfind("Invalid arguments for tool typed: ", 0), 0u) << text;
    EXPECT_EQ(reason(typed), reason(plain)) << args.dump(); // word for word, but for the tool's name
  }
  // Past the schema, a value an int cannot hold: the same kind of result.
  auto big = result_of(
    c.request("tools/call", {{"name", "typed"}, {"arguments", {{"city", "Oslo"}, {"days", 1e10}}}}));
  EXPECT_EQ(big["isError"], true);
  EXPECT_EQ(big["content"][0]["text"], "Invalid arguments for tool typed: /days: 10000000000.0 does not fit");
  EXPECT_FALSE(typed_called);
  auto ok = result_of(c.request("tools/call", {{"name", "typed"}, {"arguments", {{"city", "Oslo"}}}}));
  EXPECT_EQ(ok["content"][0]["text"], "ran");
  EXPECT_TRUE(typed_called);
}

TEST(TypedTool, StructuredContentMatchesTheDerivedOutputSchema) {
  server srv(all_on());
  ASSERT_TRUE(
    applied(srv.add_tool(typed_tool("forecast", "Highs", [](const weather_args& a, request_context&) {
      return forecast{a.city, std::vector<double>(a.days.value_or(1), 21.0)};
    }))));
  in_process_client c(srv);
  c.initialize();
  auto r = result_of(
    c.request("tools/call", {{"name", "forecast"}, {"arguments", {{"city", "Oslo"}, {"days", 2}}}}));
  EXPECT_FALSE(r.contains("isError")) << r.dump();
  EXPECT_EQ(r["structuredContent"], (json{{"city", "Oslo"}, {"highs", {21.0, 21.0}}}));
  // The server checked it against the outputSchema it lists; so do we.
  auto schema = result_of(c.request("tools/list"))["tools"][0]["outputSchema"];
  EXPECT_EQ(schema_validator(schema).validate(r["structuredContent"]), std::nullopt);
}

TEST(TypedPrompt, ThroughAServerRequiredArgumentsAreChecked) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_prompt(typed_prompt("review", "Asks for a review", [](const review_args& a) {
    return "Review " + a.code + (a.focus ? " for " + *a.focus : std::string());
  }))));
  in_process_client c(srv);
  c.initialize();
  auto listed = result_of(c.request("prompts/list"))["prompts"][0];
  EXPECT_EQ(listed["arguments"][0],
            (json{{"name", "code"}, {"description", "The code to review"}, {"required", true}}));
  auto missing = c.request("prompts/get", {{"name", "review"}, {"arguments", {{"focus", "names"}}}});
  ASSERT_TRUE(missing.contains("error")) << missing.dump();
  EXPECT_EQ(missing["error"]["code"], -32602);
  EXPECT_EQ(missing["error"]["message"], "Missing required argument: code");
  auto ok = result_of(c.request("prompts/get", {{"name", "review"}, {"arguments", {{"code", "f()"}}}}));
  EXPECT_EQ(ok["messages"][0]["content"]["text"], "Review f()");
}

} // namespace
} // namespace cafmcp::test

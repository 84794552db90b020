// The 2026-07-28 fixtures of the conformance suite's reference server, with
// its names and behaviours: multi-round-trip input (input_required), the
// missing-capability probe, logging through `_meta`, and the mutations that
// drive subscriptions/listen. Written against request_context only, so they
// also show how a handler serves both revisions.
#include <atomic>

#include "fixtures.hpp"

namespace everything {
namespace {

using cafmcp::input_required;
using cafmcp::json;
using cafmcp::request_context;
using cafmcp::tool_result;

const json no_args = {{"type", "object"}, {"properties", json::object()}};

json ask(std::string method, json params) {
  return {{"method", std::move(method)}, {"params", std::move(params)}};
}

json elicit(std::string message, const char* field, const char* type = "string") {
  json schema = {
    {"type", "object"}, {"properties", {{field, {{"type", type}}}}}, {"required", json::array({field})}};
  return ask("elicitation/create", {{"message", std::move(message)}, {"requestedSchema", std::move(schema)}});
}

json sample(std::string text, int max_tokens) {
  return ask("sampling/createMessage",
             {{"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", std::move(text)}}}}}},
              {"maxTokens", max_tokens}});
}

const json list_roots = ask("roots/list", json::object());

// An accepted elicitation's field as text.
std::string elicited(const json& response, const char* field) {
  if (response.contains("content") && response["content"].is_object() && response["content"].contains(field)
      && response["content"][field].is_string())
    return response["content"][field].get<std::string>();
  return "unknown";
}

std::size_t root_count(const json& response) {
  return response.contains("roots") && response["roots"].is_array() ? response["roots"].size() : 0;
}

void add_input_required_tools(cafmcp::server& srv) {
  srv.add_tool(make_tool("test_input_required_result_elicitation",
                         "MRTR: returns InputRequiredResult with elicitation request", no_args,
                         [](const json&, request_context& ctx) {
                           if (auto r = ctx.input_response("user_name"))
                             return tool_result::text("Hello, " + elicited(*r, "name") + "!");
                           throw input_required{{{"user_name", elicit("What is your name?", "name")}}};
                         }));
  srv.add_tool(make_tool(
    "test_input_required_result_sampling", "MRTR: returns InputRequiredResult with sampling request", no_args,
    [](const json&, request_context& ctx) {
      if (auto r = ctx.input_response("sample_request")) {
        auto text = r->contains("content") && (*r)["content"].is_object()
                      ? (*r)["content"].value("text", "no response")
                      : std::string("no response");
        return tool_result::text("Sampling result: " + text);
      }
      throw input_required{{{"sample_request", sample("What is the capital of France?", 100)}}};
    }));
  srv.add_tool(make_tool("test_input_required_result_list_roots",
                         "MRTR: returns InputRequiredResult with roots/list request", no_args,
                         [](const json&, request_context& ctx) {
                           if (auto r = ctx.input_response("roots_request"))
                             return tool_result::text("Found " + std::to_string(root_count(*r)) + " root(s)");
                           throw input_required{{{"roots_request", list_roots}}};
                         }));
  srv.add_tool(make_tool("test_input_required_result_request_state",
                         "MRTR: returns InputRequiredResult with requestState", no_args,
                         [](const json&, request_context& ctx) {
                           auto confirm = ctx.input_response("confirm");
                           const auto& state = ctx.request_state();
                           if (confirm && state.is_object() && state.value("kind", "") == "request-state"
                               && confirm->contains("content") && (*confirm)["content"].value("ok", false))
                             return tool_result::text("state-ok: requestState validated");
                           throw input_required{{{"confirm", elicit("Please confirm", "ok", "boolean")}},
                                                {{"kind", "request-state"}}};
                         }));
  srv.add_tool(
    make_tool("test_input_required_result_multiple_inputs",
              "MRTR: returns InputRequiredResult with multiple input requests", no_args,
              [](const json&, request_context& ctx) {
                auto name = ctx.input_response("user_name");
                auto greeting = ctx.input_response("greeting");
                auto roots = ctx.input_response("client_roots");
                if (name && greeting && roots && ctx.request_state().value("kind", "") == "multiple-inputs") {
                  auto text = greeting->contains("content") && (*greeting)["content"].is_object()
                                ? (*greeting)["content"].value("text", "Hello there!")
                                : std::string("Hello there!");
                  return tool_result::text("Name: " + elicited(*name, "name") + "; Greeting: " + text
                                           + "; Roots: " + std::to_string(root_count(*roots)));
                }
                throw input_required{{{"user_name", elicit("What is your name?", "name")},
                                      {"greeting", sample("Generate a greeting", 50)},
                                      {"client_roots", list_roots}},
                                     {{"kind", "multiple-inputs"}}};
              }));
  srv.add_tool(make_tool(
    "test_input_required_result_multi_round", "MRTR: multi-round InputRequiredResult workflow", no_args,
    [](const json&, request_context& ctx) {
      const auto& state = ctx.request_state();
      int round = state.is_object() ? state.value("round", 0) : 0;
      if (round == 1)
        if (auto step1 = ctx.input_response("step1"))
          throw input_required{{{"step2", elicit("Step 2: What is your favorite color?", "color")}},
                               {{"round", 2}, {"name", elicited(*step1, "name")}}};
      if (round == 2)
        if (auto step2 = ctx.input_response("step2"))
          return tool_result::text("Multi-round complete for " + state.value("name", "friend") + " who likes "
                                   + elicited(*step2, "color"));
      throw input_required{{{"step1", elicit("Step 1: What is your name?", "name")}}, {{"round", 1}}};
    }));
  // A tampered requestState never reaches the handler: the server refuses
  // it (-32602) before dispatch.
  srv.add_tool(
    make_tool("test_input_required_result_tampered_state", "MRTR: HMAC-signed requestState integrity test",
              no_args, [](const json&, request_context& ctx) {
                if (ctx.request_state().value("kind", "") == "tamper-test" && ctx.input_response("confirm"))
                  return tool_result::text("integrity-ok: state verified");
                throw input_required{{{"confirm", elicit("Please confirm", "ok", "boolean")}},
                                     {{"kind", "tamper-test"}}};
              }));
  srv.add_tool(make_tool("test_input_required_result_capabilities",
                         "MRTR: respects client capabilities in inputRequests", no_args,
                         [](const json&, request_context& ctx) {
                           const auto& caps = ctx.client_capabilities();
                           json requests = json::object();
                           if (caps.contains("elicitation"))
                             requests["elicit_input"] = elicit("Elicitation input", "value");
                           if (caps.contains("sampling"))
                             requests["sample_input"] = sample("Sample request", 50);
                           std::string received;
                           for (auto& [key, _] : requests.items())
                             if (ctx.input_response(key))
                               received += (received.empty() ? "" : ",") + key;
                           if (!received.empty())
                             return tool_result::text("capabilities-ok: received " + received);
                           if (requests.empty())
                             return tool_result::text("No supported capabilities declared");
                           throw input_required{std::move(requests), {{"kind", "capabilities-test"}}};
                         }));
}

void add_probe_tools(cafmcp::server& srv) {
  srv.add_tool(make_tool("test_missing_capability", "Test tool requiring sampling", no_args,
                         [](const json&, request_context& ctx) {
                           ctx.require_client_capability("sampling");
                           return tool_result::text("Success");
                         }));
  srv.add_tool(make_tool("test_streaming_elicitation", "Diagnostic tool validating response progress streams",
                         no_args, [](const json&, request_context& ctx) {
                           ctx.progress(50, 100);
                           return tool_result::text("Streaming complete");
                         }));
  // Logs only when the request's `_meta` names a level (2026-07-28) or the
  // session set one (earlier revisions).
  srv.add_tool(make_tool("test_logging_tool", "Diagnostic logging validator tool", no_args,
                         [](const json&, request_context& ctx) {
                           ctx.log(cafmcp::log_level::info, "Diagnostic trace logging activated");
                           return tool_result::text("Logging evaluated");
                         }));
}

// Each call adds or removes a tool (prompt), so every call is a list change.
void add_trigger_tools(cafmcp::server& srv) {
  srv.add_tool(make_tool(
    "test_trigger_tool_change", "Changes the tool list", no_args, [&srv](const json&, request_context&) {
      static std::atomic<bool> present{false};
      if (present.exchange(!present.load()))
        srv.remove_tool("test_dynamic_tool").get();
      else
        srv
          .add_tool(make_tool("test_dynamic_tool", "Added by test_trigger_tool_change", no_args,
                              [](const json&, request_context&) { return tool_result::text("dynamic"); }))
          .get();
      return tool_result::text("Mutation triggered");
    }));
  srv.add_tool(make_tool(
    "test_trigger_prompt_change", "Changes the prompt list", no_args, [&srv](const json&, request_context&) {
      static std::atomic<bool> present{false};
      if (present.exchange(!present.load())) {
        srv.remove_prompt("test_dynamic_prompt").get();
      } else {
        cafmcp::prompt p;
        p.name = "test_dynamic_prompt";
        p.description = "Added by test_trigger_prompt_change";
        p.handler = [](const auto&, request_context&) { return cafmcp::prompt_result{}; };
        srv.add_prompt(p).get();
      }
      return tool_result::text("Mutation triggered");
    }));
}

void add_prompt_and_resource(cafmcp::server& srv) {
  cafmcp::prompt p;
  p.name = "test_input_required_result_prompt";
  p.description = "MRTR: prompt that requires elicitation input";
  p.handler = [](const auto&, request_context& ctx) {
    auto r = ctx.input_response("user_context");
    if (!r)
      throw input_required{{{"user_context", elicit("What context should the prompt use?", "context")}}};
    cafmcp::prompt_result out;
    out.messages.push_back(
      {"user", cafmcp::content::text("Prompt with context: " + elicited(*r, "context"))});
    return out;
  };
  srv.add_prompt(p);

  cafmcp::resource r;
  r.uri = "test://stateless-static-text";
  r.name = "Stateless Static Text";
  r.description = "A static text resource served on the draft path";
  r.mime_type = "text/plain";
  r.contents.push_back(cafmcp::resource_contents::make_text(
    r.uri, "Static text content from the stateless draft path.", "text/plain"));
  srv.add_resource(r);
}

} // namespace

// SEP-2243: parameters a client mirrors into Mcp-Param-* headers; the
// server refuses a call whose headers and body disagree (-32020, HTTP 400).
void add_custom_header_tool(cafmcp::server& srv) {
  json schema = {{"type", "object"},
                 {"properties",
                  {{"region", {{"type", "string"}, {"x-mcp-header", "Region"}}},
                   {"priority", {{"type", "integer"}, {"x-mcp-header", "Priority"}}},
                   {"verbose", {{"type", "boolean"}, {"x-mcp-header", "Verbose"}}},
                   {"query", {{"type", "string"}}}}},
                 {"required", json::array({"region"})}};
  srv.add_tool(make_tool("test_custom_headers", "Echoes parameters that travel in Mcp-Param-* headers too",
                         std::move(schema), [](const json& args, request_context&) {
                           return tool_result::text("region=" + args.value("region", std::string()));
                         }));
}

void install_stateless_fixtures(cafmcp::server& srv) {
  add_input_required_tools(srv);
  add_custom_header_tool(srv);
  add_probe_tools(srv);
  add_trigger_tools(srv);
  add_prompt_and_resource(srv);
}

} // namespace everything

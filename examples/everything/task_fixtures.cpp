// Tasks: the fixtures of the conformance suite's tasks scenarios (names and
// behaviours as the suite expects them), which also show the three ways a
// tool meets tasks: a sync tool (greet), tools the server makes tasks of
// (slow_compute, failing_job, protocol_error_job, confirm_delete,
// multi_input), and one whose handler decides when (test_tool_with_task).
// The same handlers serve 2025-11-25 clients (params.task) and 2026-07-28
// clients of the io.modelcontextprotocol/tasks extension.
#include <chrono>
#include <thread>

#include "fixtures.hpp"

namespace everything {
namespace {

using cafmcp::input_required;
using cafmcp::json;
using cafmcp::request_context;
using cafmcp::request_refused;
using cafmcp::task_support;
using cafmcp::tool_result;

// Waits `d`, a slice at a time, unless the task is cancelled meanwhile.
bool wait_unless_cancelled(request_context& ctx, std::chrono::milliseconds d) {
  auto until = std::chrono::steady_clock::now() + d;
  while (std::chrono::steady_clock::now() < until) {
    if (ctx.cancelled())
      return false;
    std::this_thread::sleep_for(std::min<std::chrono::milliseconds>(
      std::chrono::milliseconds(50), std::chrono::duration_cast<std::chrono::milliseconds>(
                                       until - std::chrono::steady_clock::now())));
  }
  return !ctx.cancelled();
}

cafmcp::tool task_tool(std::string name, std::string description, json schema, cafmcp::tool_handler h,
                       task_support support = task_support::optional) {
  auto t = make_tool(std::move(name), std::move(description), std::move(schema), std::move(h));
  t.tasks = support;
  return t;
}

json confirm_request(std::string message) {
  return {{"method", "elicitation/create"},
          {"params",
           {{"message", std::move(message)},
            {"requestedSchema",
             {{"type", "object"}, {"properties", {{"confirm", {{"type", "boolean"}}}}}}}}}};
}

json name_request(std::string message) {
  return {{"method", "elicitation/create"},
          {"params",
           {{"message", std::move(message)},
            {"requestedSchema",
             {{"type", "object"},
              {"properties", {{"name", {{"type", "string"}}}}},
              {"required", json::array({"name"})}}}}}};
}

std::string accepted_name(const json& answer) {
  if (answer.is_object() && answer.value("action", "") == "accept" && answer.contains("content")
      && answer["content"].is_object() && answer["content"].contains("name")
      && answer["content"]["name"].is_string())
    return answer["content"]["name"].get<std::string>();
  return "unknown";
}

} // namespace

void install_task_fixtures(cafmcp::server& srv) {
  srv.add_tool(make_tool("greet", "Says hello (never a task)",
                         {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}},
                         [](const json& args, request_context&) {
                           return tool_result::text("Hello, " + args.value("name", std::string("World")) + "!");
                         }));
  srv.add_tool(task_tool(
    "slow_compute", "Works `seconds` seconds as a task, then answers; stops when the task is cancelled",
    {{"type", "object"},
     {"properties", {{"seconds", {{"type", "number"}, {"minimum", 0}}}, {"label", {{"type", "string"}}}}}},
    [](const json& args, request_context& ctx) {
      auto seconds = args.value("seconds", 1.0);
      auto label = args.value("label", std::string("compute"));
      ctx.progress(0, 1, "started");
      ctx.log(cafmcp::log_level::info, label + " started");
      if (!wait_unless_cancelled(ctx, std::chrono::milliseconds(static_cast<long>(seconds * 1000))))
        return tool_result::error(label + " cancelled");
      return tool_result::text(label + " done after " + std::to_string(seconds) + "s");
    }));
  srv.add_tool(task_tool(
    "failing_job", "Reports a tool error after about a second (only as a task)",
    {{"type", "object"}},
    [](const json&, request_context& ctx) {
      wait_unless_cancelled(ctx, std::chrono::milliseconds(1000));
      return tool_result::error("failing_job failed, as it always does");
    },
    task_support::required));
  srv.add_tool(task_tool("protocol_error_job", "Fails with a protocol error (the task fails)",
                         {{"type", "object"}}, [](const json&, request_context&) -> tool_result {
                           throw request_refused{cafmcp::jsonrpc::code::internal_error,
                                                 "protocol_error_job: internal failure, as designed",
                                                 json{{"fixture", "protocol_error_job"}}};
                         }));
  srv.add_tool(task_tool(
    "confirm_delete", "Asks the client to confirm (elicitation), then 'deletes' the file",
    {{"type", "object"}, {"properties", {{"filename", {{"type", "string"}}}}}},
    [](const json& args, request_context& ctx) {
      auto file = args.value("filename", std::string("file"));
      // request() serves both wires: a 2025-11-25 task asks the client and
      // waits (input_required meanwhile); a 2026-07-28 one waits in the task
      // for tasks/update.
      auto ask = confirm_request("Delete " + file + "?");
      auto answer = ctx.request(ask["method"], ask["params"]);
      bool yes = answer.value("action", "") == "accept";
      return tool_result::text(yes ? "Deleted " + file : "Kept " + file);
    }));
  srv.add_tool(task_tool("multi_input", "Asks for two inputs at once (two elicitations pending together)",
                         {{"type", "object"}}, [](const json&, request_context& ctx) {
                           if (!ctx.stateless()) { // one after the other
                             auto a = name_request("First name?"), b = name_request("Second name?");
                             auto first = ctx.request(a["method"], a["params"]);
                             auto second = ctx.request(b["method"], b["params"]);
                             return tool_result::text("Got " + accepted_name(first) + " and "
                                                      + accepted_name(second));
                           }
                           auto first = ctx.input_response("first");
                           auto second = ctx.input_response("second");
                           if (!first || !second)
                             throw input_required{{{"first", name_request("First name?")},
                                                   {"second", name_request("Second name?")}}};
                           return tool_result::text("Got " + accepted_name(*first) + " and "
                                                    + accepted_name(*second));
                         }));
  // Gathers the user's name in the request (multi-round-trip), and only
  // then becomes a task: the handler starts it.
  auto with_task = task_tool(
    "test_tool_with_task", "Asks the user's name, then greets them from a task", {{"type", "object"}},
    [](const json&, request_context& ctx) {
      auto name = ctx.input_response("user_name");
      if (!name)
        throw input_required{{{"user_name", name_request("What is your name?")}}};
      ctx.continue_as_task();
      wait_unless_cancelled(ctx, std::chrono::milliseconds(200));
      return tool_result::text("Hello from a task, " + accepted_name(*name) + "!");
    },
    task_support::required);
  with_task.handler_starts_task = true;
  srv.add_tool(std::move(with_task));
}

} // namespace everything

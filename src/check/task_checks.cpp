// MCP 2025-11-25 tasks (experimental, SEP-1686), judged on a server that
// declares them: a tools/call made a task answers with the Task, tasks/get
// and tasks/list find it, tasks/result waits for the end and names the task,
// an unknown id and cancelling a finished task are -32602. The tool is
// --task-tool (else the first listed tool whose execution.taskSupport allows
// a task and whose input needs no arguments), called with --task-args.
#include <algorithm>

#include "check/checks.hpp"
#include "check/shape.hpp"

namespace cafmcp::check {
namespace {

// Wire names restated: the checker judges servers by the specification.
constexpr const char* related_task = "io.modelcontextprotocol/related-task";
bool is_status(const json& s) {
  static const std::vector<std::string> all = {"working", "input_required", "completed", "failed", "cancelled"};
  return s.is_string() && std::find(all.begin(), all.end(), s.get<std::string>()) != all.end();
}

// What is wrong with a Task object, or empty.
std::string task_problems(const json& t) {
  std::string why;
  if (!t.is_object())
    return "not an object";
  if (!t.contains("taskId") || !t["taskId"].is_string() || t["taskId"].get<std::string>().empty())
    why += "no string taskId; ";
  if (!t.contains("status") || !is_status(t["status"]))
    why += "status is not one of the five; ";
  for (auto field : {"createdAt", "lastUpdatedAt"})
    if (!t.contains(field) || !t[field].is_string() || !is_date_time(t[field].get<std::string>()))
      why += std::string(field) + " is not ISO 8601; ";
  if (!t.contains("ttl") || !(t["ttl"].is_number() || t["ttl"].is_null()))
    why += "ttl (number or null) missing; ";
  return why;
}

bool terminal(const json& status) {
  return status == "completed" || status == "failed" || status == "cancelled";
}

int error_code(const json& reply) {
  return reply.contains("error") && reply["error"].is_object() ? member_or(reply["error"], "code", 0) : 0;
}

// The tool the checks call as a task.
std::optional<std::string> pick_tool(context& ctx, probe& p) {
  if (!ctx.opts.task_tool.empty())
    return ctx.opts.task_tool;
  auto listed = p.request("tools/list", json::object(), ctx.opts.timeout);
  if (!listed.contains("result"))
    return std::nullopt;
  for (auto& t : listed["result"].value("tools", json::array())) {
    auto support = t.value("execution", json::object()).value("taskSupport", std::string("forbidden"));
    auto required = t.value("inputSchema", json::object()).value("required", json::array());
    if ((support == "optional" || support == "required") && required.empty())
      return t.value("name", std::string());
  }
  return std::nullopt;
}

} // namespace

void check_tasks(context& ctx) {
  const std::string create_id = "tasks.create", create_title = "a tools/call with params.task answers {task: Task}";
  const std::string get_id = "tasks.get", get_title = "tasks/get answers the Task by its id";
  const std::string list_id = "tasks.list", list_title = "tasks/list lists the requestor's task";
  const std::string result_id = "tasks.result",
                    result_title = "tasks/result waits for the end and answers with the related-task _meta";
  const std::string unknown_id = "tasks.unknown-id", unknown_title = "an unknown taskId is -32602";
  const std::string cancel_id = "tasks.cancel-terminal",
                    cancel_title = "cancelling a task that ended is -32602, and it stays as it ended";
  std::vector<std::pair<std::string, std::string>> all = {{create_id, create_title}, {get_id, get_title},
                                                          {list_id, list_title},     {result_id, result_title},
                                                          {unknown_id, unknown_title}, {cancel_id, cancel_title}};
  auto skip_all = [&](const std::string& why, std::size_t from = 0) {
    for (auto i = from; i < all.size(); ++i)
      if (!ctx.recorded(all[i].first))
        ctx.record(all[i].first, all[i].second, spec::tasks, verdict::skip, why);
  };
  const auto& caps = ctx.capabilities();
  if (!caps.contains("tasks") || !caps["tasks"].is_object())
    return skip_all("the server declares no tasks capability");
  if (!caps["tasks"].value("requests", json::object()).value("tools", json::object()).contains("call"))
    return skip_all("the server's tasks capability does not cover tools/call");
  auto& p = ctx.primary();
  auto tool = pick_tool(ctx, p);
  if (!tool || tool->empty())
    return skip_all("no listed tool allows a task without arguments (name one with --task-tool)");

  auto created = p.request("tools/call",
                           {{"name", *tool}, {"arguments", ctx.opts.task_arguments}, {"task", {{"ttl", 60000}}}},
                           ctx.opts.timeout);
  json task = created.contains("result") ? created["result"].value("task", json()) : json();
  auto problems = task.is_null() ? "answer: " + created.dump() : task_problems(task);
  ctx.record(create_id, create_title, spec::tasks, problems.empty() ? verdict::pass : verdict::fail,
             problems.empty() ? "tool " + *tool + ": task " + task["taskId"].get<std::string>() : problems);
  if (!problems.empty())
    return skip_all("no task was created", 1);
  const std::string id = task["taskId"];

  auto got = p.request("tasks/get", {{"taskId", id}}, ctx.opts.timeout);
  auto got_task = got.value("result", json());
  auto get_problems = got_task.is_null() ? "answer: " + got.dump() : task_problems(got_task);
  if (get_problems.empty() && got_task["taskId"] != id)
    get_problems = "another taskId: " + got_task["taskId"].dump();
  ctx.record(get_id, get_title, spec::tasks, get_problems.empty() ? verdict::pass : verdict::fail, get_problems);

  if (caps["tasks"].contains("list")) {
    auto listed = p.request("tasks/list", json::object(), ctx.opts.timeout);
    auto tasks = listed.contains("result") ? listed["result"].value("tasks", json::array()) : json::array();
    bool found = std::any_of(tasks.begin(), tasks.end(), [&](const json& t) { return t.value("taskId", "") == id; });
    ctx.record(list_id, list_title, spec::tasks, found ? verdict::pass : verdict::fail,
               found ? "" : "not among " + std::to_string(tasks.size()) + " listed");
  } else {
    ctx.record(list_id, list_title, spec::tasks, verdict::skip, "the server does not declare tasks.list");
  }

  // tasks/result blocks until the task ends: a generous deadline.
  auto waited = p.request("tasks/result", {{"taskId", id}}, ctx.opts.timeout * 6);
  json final_state = p.request("tasks/get", {{"taskId", id}}, ctx.opts.timeout).value("result", json());
  std::string result_problem;
  if (waited.contains("result")) {
    auto meta = waited["result"].value("_meta", json::object());
    if (!meta.contains(related_task) || meta[related_task].value("taskId", "") != id)
      result_problem = "no _meta[\"" + std::string(related_task) + "\"].taskId naming the task";
  } else if (!waited.contains("error")) {
    result_problem = "answer: " + waited.dump();
  }
  if (result_problem.empty() && !terminal(final_state.value("status", json())))
    result_problem = "answered while the task is " + final_state.value("status", json()).dump();
  ctx.record(result_id, result_title, spec::tasks, result_problem.empty() ? verdict::pass : verdict::fail,
             result_problem);

  auto unknown = p.request("tasks/get", {{"taskId", ctx.unique("no-such-task")}}, ctx.opts.timeout);
  ctx.record(unknown_id, unknown_title, spec::tasks, error_code(unknown) == -32602 ? verdict::pass : verdict::fail,
             "answered " + (unknown.contains("error") ? std::to_string(error_code(unknown)) : unknown.dump()));

  if (!caps["tasks"].contains("cancel"))
    return ctx.record(cancel_id, cancel_title, spec::tasks, verdict::skip, "the server does not declare tasks.cancel");
  if (!terminal(final_state.value("status", json())))
    return ctx.record(cancel_id, cancel_title, spec::tasks, verdict::skip, "the task did not end");
  auto cancelled = p.request("tasks/cancel", {{"taskId", id}}, ctx.opts.timeout);
  auto after = p.request("tasks/get", {{"taskId", id}}, ctx.opts.timeout).value("result", json());
  bool same = after.value("status", json()) == final_state.value("status", json());
  ctx.record(cancel_id, cancel_title, spec::tasks,
             error_code(cancelled) == -32602 && same ? verdict::pass : verdict::fail,
             !same ? "status moved to " + after.value("status", json()).dump()
                   : "answered " + (cancelled.contains("error") ? std::to_string(error_code(cancelled)) : cancelled.dump()));
}

} // namespace cafmcp::check

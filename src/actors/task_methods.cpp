#include "actors/task_methods.hpp"

#include "actors/runtime.hpp"
#include "protocol/param_headers.hpp"

namespace cafmcp::actors {

std::optional<jsonrpc::error> plan_tool_call(const runtime& rt, const protocol::tool_entry& tool, call& c) {
  if (c.param_headers && c.env->stateless)
    if (auto wrong = protocol::check_param_headers(tool.spec.input_schema, c.params.value("arguments", json::object()),
                                                   *c.param_headers))
      return wrong;
  auto decision = protocol::plan_task(tool.spec.tasks, c.env->stateless, c.env->client_capabilities, c.params,
                                      rt.options->tasks);
  if (auto* refused = std::get_if<jsonrpc::error>(&decision))
    return *refused;
  if (auto* plan = std::get_if<protocol::task_plan>(&decision))
    c.task_plan = *plan;
  return std::nullopt;
}

void prepare_task_job(const protocol::tool_entry& tool, const call& c, protocol::job& job) {
  if (!c.task_plan)
    return;
  job.quick = false; // a task outlives its request: it needs a thread of its own
  if (tool.spec.handler_starts_task)
    return;
  job.run = [inner = std::move(job.run)](request_context& ctx) -> protocol::outcome {
    ctx.continue_as_task();
    return inner(ctx);
  };
}

bool is_task_method(const std::string& method) { return method.rfind("tasks/", 0) == 0; }

namespace {

jsonrpc::error not_found(const std::string& method, const char* why) {
  return {jsonrpc::code::method_not_found, "Method not found: " + method + " (" + why + ")", std::nullopt};
}

} // namespace

void serve_task_method(runtime& rt, const call& c, std::function<void(protocol::outcome)> answer) {
  auto& tasks = *rt.tasks;
  const auto& m = c.method;
  std::string who = c.caller ? c.caller->subject : std::string();
  bool extension = c.env->stateless;
  if (extension) {
    if (m == "tasks/result" || m == "tasks/list")
      return answer(not_found(m, "removed by the io.modelcontextprotocol/tasks extension"));
    if (m != "tasks/get" && m != "tasks/update" && m != "tasks/cancel")
      return answer(not_found(m, "not a tasks method"));
    if (auto refused = protocol::extension_refusal(c.env->client_capabilities))
      return answer(*refused);
  } else {
    if (m == "tasks/list") {
      std::string owner = !who.empty() ? "sub:" + who : "session:" + c.env->session_id;
      return answer(tasks.list(owner, c.params));
    }
    if (m != "tasks/get" && m != "tasks/result" && m != "tasks/cancel")
      return answer(not_found(m, "not a 2025-11-25 tasks method"));
  }
  auto id = c.params.is_object() && c.params.contains("taskId") && c.params["taskId"].is_string()
              ? c.params["taskId"].get<std::string>()
              : std::string();
  if (id.empty())
    return answer(jsonrpc::error{jsonrpc::code::invalid_params, m + " requires a string taskId", std::nullopt});
  if (m == "tasks/get")
    return answer(tasks.get(id, who));
  if (m == "tasks/cancel")
    return tasks.cancel(id, who, std::move(answer));
  if (m == "tasks/update")
    return tasks.update(id, c.params.value("inputResponses", json::object()), who, std::move(answer));
  tasks.result(id, who, std::move(answer));
}

} // namespace cafmcp::actors

#pragma once
// What becomes of a call once it is dispatched, wherever that happened:
// the server actor (every method), or a session that calls a tool from its
// copy of the tool table (published_tools.hpp). An outcome is answered; a
// job runs on its session's actor (a quick handler) or on a worker. How an
// answer reaches the session, and how the session is handed a job, are the
// caller's: a message from the server actor, a plain call on the session.
#include <utility>
#include <variant>

#include "actors/messages.hpp"
#include "actors/runtime.hpp"
#include "actors/task_methods.hpp"
#include "actors/worker.hpp"
#include "protocol/dispatch.hpp"

namespace cafmcp::actors {

/// `tool`: the tool a tools/call names (null: none, or another method).
/// `answer(const call&, protocol::outcome)`; `run_on_session(call&&, protocol::job&&)`.
/// The call travels by reference until something keeps it: a move of a
/// call (two strings, two json values, four shared pointers, a trace
/// context) was ~220 instructions, and a quick tools/call made five.
template <class Answer, class RunOnSession>
void route_call(runtime& rt, call&& c, protocol::dispatch_result result, const protocol::tool_entry* tool,
                Answer&& answer, RunOnSession&& run_on_session) {
  if (auto* done = std::get_if<protocol::outcome>(&result))
    return answer(c, std::move(*done));
  auto& job = std::get<protocol::job>(result);
  if (tool)
    prepare_task_job(*tool, c, job);
  if (job.quick && rt.options->inline_quick_handlers)
    run_on_session(std::move(c), std::move(job));
  else
    run_on_worker(rt, std::move(job), std::move(c));
}

/// A tools/call of `tool` (as the caller's table has it; null: no tool by
/// the name it gives): planned (tasks, Mcp-Param headers), dispatched and
/// routed.
template <class Answer, class RunOnSession>
void serve_tool_call(runtime& rt, const protocol::tool_entry* tool, call&& c, Answer&& answer,
                     RunOnSession&& run_on_session) {
  if (tool)
    if (auto refused = plan_tool_call(rt, *tool, c))
      return answer(c, protocol::outcome{std::move(*refused)});
  auto result = protocol::call_tool(tool, c.params, c.caller.get());
  route_call(rt, std::move(c), std::move(result), tool, std::forward<Answer>(answer),
             std::forward<RunOnSession>(run_on_session));
}

} // namespace cafmcp::actors

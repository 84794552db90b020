#pragma once
// The server actor's side of tasks: which tools/call becomes one, and the
// tasks/* methods (answered from the task_service, never from a worker).
#include <optional>

#include "actors/messages.hpp"
#include "protocol/registry.hpp"

namespace cafmcp::actors {

struct runtime;

/// A tools/call of `tool` that may become a task gets its plan
/// (c.task_plan); one the tool's task support refuses for this client gets
/// the error, as does a 2026-07-28 call whose Mcp-Param headers disagree
/// with its arguments.
std::optional<jsonrpc::error> plan_tool_call(const runtime& rt, const protocol::tool_entry& tool, call& c);
/// The job of a planned call: never quick, and, unless the handler starts
/// the task itself, made a task before the handler runs.
void prepare_task_job(const protocol::tool_entry& tool, const call& c, protocol::job& job);

/// True for a tasks/* method; `answer` then receives its outcome (at once,
/// or, 2025-11-25 tasks/result, when the task ends).
bool is_task_method(const std::string& method);
void serve_task_method(runtime& rt, const call& c, std::function<void(protocol::outcome)> answer);

} // namespace cafmcp::actors

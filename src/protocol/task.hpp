#pragma once
// Tasks as data: a task's record, the moves its status may make, the
// decision whether a tools/call becomes one, and the shapes the two wires
// give it. 2025-11-25 (experimental tasks, SEP-1686: `params.task`,
// `{task: Task}`, tasks/get|result|list|cancel, notifications/tasks/status)
// and the 2026-07-28 `io.modelcontextprotocol/tasks` extension (SEP-2663:
// server-directed, flat `resultType: "task"`, tasks/get|update|cancel, the
// result inlined in tasks/get). Pure: no actors, no clock of its own.
#include <chrono>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "cafmcp/json.hpp"
#include "cafmcp/json_rpc.hpp"
#include "cafmcp/server_options.hpp"
#include "cafmcp/tool.hpp"

namespace cafmcp::protocol {

inline constexpr std::string_view tasks_extension = "io.modelcontextprotocol/tasks";
inline constexpr std::string_view related_task_key = "io.modelcontextprotocol/related-task";

enum class task_status { working, input_required, completed, failed, cancelled };

std::string_view to_string(task_status s);
bool is_terminal(task_status s);
/// working <-> input_required, either -> completed | failed | cancelled;
/// nothing leaves a terminal status.
bool may_move(task_status from, task_status to);

/// Which revision's wire a task was created on; it answers in that shape.
enum class task_wire {
  sessions,  ///< 2025-11-25
  extension, ///< 2026-07-28 io.modelcontextprotocol/tasks
};

struct task_record {
  using clock = std::chrono::system_clock;
  std::string id;
  /// Who may see it: a verified subject (only that subject), else empty
  /// (whoever holds the unguessable id).
  std::string subject;
  /// What tasks/list and the per-owner limit count by: the subject, else
  /// the session (2025-11-25), else empty.
  std::string owner;
  std::string session_id; // where status notifications go (2025-11-25)
  task_wire wire = task_wire::sessions;
  task_status status = task_status::working;
  std::string status_message;
  clock::time_point created, updated;
  std::chrono::milliseconds ttl{0}, poll_interval{0};
  json result;                          // completed: the tool's CallToolResult
  std::optional<jsonrpc::error> error;  // failed
  json input_requests = json::object(); // input_required: key -> {method, params} still unanswered
  json answers = json::object();        // every input answer so far (the handler's next run sees them)
  json handler_state;                   // the `state` of the handler's last input_required
  std::string node;                     // clustered: the node running it
};

/// What a tools/call becomes.
struct task_plan {
  task_wire wire;
  std::chrono::milliseconds ttl;
};
/// For the server: run it in the request (nothing), as a task (a plan), or
/// refuse it (2025-11-25: -32601 for `task` on a tool that forbids tasks and
/// for a required-task tool called without one; 2026-07-28: -32021 naming
/// the extension for a required-task tool from a client without it).
using task_decision = std::variant<std::monostate, task_plan, jsonrpc::error>;

/// `stateless`: a 2026-07-28 request, whose `client_capabilities` came from
/// its `_meta`. `params`: the tools/call params (`task: {ttl}` on 2025-11-25;
/// tolerated and ignored on 2026-07-28, where the server decides).
task_decision plan_task(task_support support, bool stateless, const json& client_capabilities,
                        const json& params, const task_options& limits);

/// The 2026-07-28 tasks methods gate: -32021 naming the extension when the
/// request's capabilities lack it.
std::optional<jsonrpc::error> extension_refusal(const json& client_capabilities);

/// The answer to the call that created the task: 2025-11-25 `{task: Task}`;
/// 2026-07-28 the flat `resultType: "task"` Task.
json create_task_result(const task_record& t);
/// tasks/get: 2025-11-25 the Task; 2026-07-28 the DetailedTask (result,
/// error or inputRequests inlined by status).
json task_view(const task_record& t);
/// 2025-11-25 tasks/result of a terminal task: the tool's result with the
/// related-task `_meta`, or its error.
std::variant<json, jsonrpc::error> task_outcome(const task_record& t);
/// notifications/tasks/status params (the Task).
json status_params(const task_record& t);

/// An unknown or expired task, and a finished one cancelled (2025-11-25):
/// -32602, as the spec reserves.
jsonrpc::error unknown_task(const std::string& id);

/// The whole record as JSON, and back (a shared store keeps it so);
/// nothing for JSON that is not one.
json record_json(const task_record& t);
std::optional<task_record> record_from_json(const json& j);

/// ISO 8601 UTC with milliseconds ("2026-11-27T03:00:00.000Z").
std::string iso8601(task_record::clock::time_point t);

} // namespace cafmcp::protocol

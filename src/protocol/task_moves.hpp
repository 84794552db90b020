#pragma once
// The edits a task's record goes through, one per event, as pure functions:
// each returns whether the record changed (a store keeps it only then), so
// a move that its status does not allow is a no-op rather than an error. The
// task actor applies them for the task it runs; the task service applies
// `cancel` itself to a task no actor here runs (another node's, clustered).
#include <string>

#include "cafmcp/json.hpp"

#include "protocol/dispatch.hpp"
#include "protocol/task.hpp"

namespace cafmcp::protocol {

using task_time = task_record::clock::time_point;

/// The handler's run ended: completed with its result (failed, naming the
/// limit, when the result is larger than `max_result_bytes`), or failed with
/// its error. Nothing once terminal (a cancelled task stays cancelled).
bool settle_task(task_record& t, outcome out, std::size_t max_result_bytes, task_time now);

/// Fails a task that has not ended, with `why` as its error and message.
bool fail_task(task_record& t, const std::string& why, task_time now);

/// The handler needs input (2026-07-28): `requests` (key -> {method,
/// params}), with every answer it had and the state it keeps. Requests it
/// has answers for already are dropped; `resume` is set when none is left
/// (the handler runs again at once) and the task is back to working.
bool park_task(task_record& t, json requests, json answers, json state, task_time now, bool& resume);

/// tasks/update: answers for pending input requests (answers to no pending
/// request are ignored). `resume` is set when the last one came.
bool answer_task(task_record& t, const json& responses, task_time now, bool& resume);

/// A 2025-11-25 handler blocked on a request to the client, or done waiting.
bool await_input(task_record& t, bool waiting, task_time now);

/// tasks/cancel of a task that has not ended.
bool cancel_task(task_record& t, task_time now);

/// A 2026-07-28 task's statusMessage from its handler's progress or log
/// message (note_text), while it has not ended.
bool note_task(task_record& t, const std::string& text, task_time now);

/// The text a progress or log notification gives the task's statusMessage
/// (2026-07-28 has no stream that outlives the request); empty: none.
std::string note_text(const json& notification);

/// tasks/cancel's answer: 2026-07-28 acks whatever the task was; 2025-11-25
/// gives the cancelled Task, or -32602 for a task that had already ended
/// (`before`: its record as the cancel found it).
outcome cancel_answer(const task_record& before, const std::optional<task_record>& after);

/// The empty acknowledgement of 2026-07-28 tasks/update and tasks/cancel.
json task_ack();

} // namespace cafmcp::protocol

#include "protocol/task_moves.hpp"

namespace cafmcp::protocol {

bool settle_task(task_record& t, outcome out, std::size_t max_result_bytes, task_time now) {
  if (is_terminal(t.status))
    return false;
  t.updated = now;
  t.input_requests = json::object();
  if (auto* result = std::get_if<json>(&out)) {
    auto size = result->dump().size();
    if (size > max_result_bytes) {
      t.status = task_status::failed;
      t.error = jsonrpc::error{jsonrpc::code::internal_error,
                               "The task's result (" + std::to_string(size) + " bytes) exceeds the server's limit of "
                                 + std::to_string(max_result_bytes) + " bytes",
                               std::nullopt};
    } else {
      t.status = task_status::completed;
      t.result = std::move(*result);
    }
  } else {
    t.status = task_status::failed;
    t.error = std::get<jsonrpc::error>(std::move(out));
    t.status_message = t.error->message;
  }
  return true;
}

bool fail_task(task_record& t, const std::string& why, task_time now) {
  return settle_task(t, jsonrpc::error{jsonrpc::code::internal_error, why, std::nullopt}, 0, now);
}

bool park_task(task_record& t, json requests, json answers, json state, task_time now, bool& resume) {
  resume = false;
  if (is_terminal(t.status))
    return false;
  t.answers = answers.is_object() ? std::move(answers) : json::object();
  t.handler_state = std::move(state);
  t.input_requests = json::object();
  if (requests.is_object())
    for (auto& [key, ask] : requests.items())
      if (!t.answers.contains(key))
        t.input_requests[key] = ask;
  t.updated = now;
  if (t.input_requests.empty()) { // asked only for what it has: run again
    resume = true;
    t.status = task_status::working;
  } else {
    t.status = task_status::input_required;
  }
  return true;
}

bool answer_task(task_record& t, const json& responses, task_time now, bool& resume) {
  resume = false;
  if (t.status != task_status::input_required)
    return false;
  for (auto& [key, answer] : responses.items())
    if (t.input_requests.contains(key)) {
      t.answers[key] = answer;
      t.input_requests.erase(key);
    }
  if (t.input_requests.empty()) {
    t.status = task_status::working;
    resume = true;
  }
  t.updated = now;
  return true;
}

bool await_input(task_record& t, bool waiting, task_time now) {
  auto to = waiting ? task_status::input_required : task_status::working;
  if (!may_move(t.status, to))
    return false;
  t.status = to;
  t.updated = now;
  return true;
}

bool cancel_task(task_record& t, task_time now) {
  if (is_terminal(t.status))
    return false;
  t.status = task_status::cancelled;
  t.status_message = "Cancelled by the client";
  t.input_requests = json::object();
  t.updated = now;
  return true;
}

bool note_task(task_record& t, const std::string& text, task_time now) {
  if (text.empty() || is_terminal(t.status))
    return false;
  t.status_message = text;
  t.updated = now;
  return true;
}

std::string note_text(const json& notification) {
  const json& p = notification.contains("params") ? notification["params"] : notification;
  if (p.contains("message") && p["message"].is_string())
    return p["message"].get<std::string>();
  if (p.contains("data"))
    return p["data"].is_string() ? p["data"].get<std::string>() : p["data"].dump();
  if (p.contains("progress"))
    return "progress " + p["progress"].dump() + (p.contains("total") ? " of " + p["total"].dump() : "");
  return {};
}

outcome cancel_answer(const task_record& before, const std::optional<task_record>& after) {
  if (before.wire == task_wire::extension)
    return task_ack(); // idempotent: a terminal task acks the same
  if (!after)          // 2025-11-25: cancelling a finished task is invalid params
    return jsonrpc::error{jsonrpc::code::invalid_params,
                          "Task " + before.id + " is already " + std::string(to_string(before.status)),
                          json{{"taskId", before.id}}};
  return status_params(*after);
}

json task_ack() { return {{"resultType", "complete"}}; }

} // namespace cafmcp::protocol

#include "protocol/task.hpp"

#include <algorithm>
#include <cstdio>
#include <ctime>

namespace cafmcp::protocol {

std::string_view to_string(task_status s) {
  switch (s) {
    case task_status::working: return "working";
    case task_status::input_required: return "input_required";
    case task_status::completed: return "completed";
    case task_status::failed: return "failed";
    case task_status::cancelled: return "cancelled";
  }
  return "failed";
}

bool is_terminal(task_status s) {
  return s == task_status::completed || s == task_status::failed || s == task_status::cancelled;
}

bool may_move(task_status from, task_status to) {
  if (is_terminal(from))
    return false;
  return from != to;
}

namespace {

bool speaks_extension(const json& caps) {
  if (!caps.is_object())
    return false;
  auto ext = caps.find("extensions");
  return ext != caps.end() && ext->is_object() && ext->contains(tasks_extension);
}

jsonrpc::error misuse(std::string message) {
  return {jsonrpc::code::method_not_found, std::move(message), std::nullopt};
}

} // namespace

std::optional<jsonrpc::error> extension_refusal(const json& client_capabilities) {
  if (speaks_extension(client_capabilities))
    return std::nullopt;
  return jsonrpc::error{
    jsonrpc::code::missing_client_capability,
    "Missing required client capability: extension " + std::string(tasks_extension),
    json{{"requiredCapabilities", {{"extensions", {{std::string(tasks_extension), json::object()}}}}}}};
}

task_decision plan_task(task_support support, bool stateless, const json& client_capabilities,
                        const json& params, const task_options& limits) {
  if (stateless) {
    // Server-directed: the extension decides, a legacy `task` param does not.
    if (support == task_support::forbidden)
      return std::monostate{};
    if (!speaks_extension(client_capabilities)) {
      if (support == task_support::required)
        return *extension_refusal(client_capabilities);
      return std::monostate{};
    }
    return task_plan{task_wire::extension, limits.default_ttl};
  }
  auto it = params.is_object() ? params.find("task") : params.end();
  bool asked = params.is_object() && it != params.end() && !it->is_null();
  if (!asked) {
    if (support == task_support::required)
      return misuse("Tool requires task augmentation: call it with params.task");
    return std::monostate{};
  }
  if (!it->is_object())
    return jsonrpc::error{jsonrpc::code::invalid_params, "tools/call: task must be an object", std::nullopt};
  if (support == task_support::forbidden)
    return misuse("Tool does not support task augmentation (execution.taskSupport is forbidden)");
  auto ttl = limits.default_ttl;
  if (auto t = it->find("ttl"); t != it->end() && t->is_number() && *t >= 0) {
    auto asked_ms = std::chrono::milliseconds(static_cast<std::int64_t>(t->get<double>()));
    ttl = std::clamp(asked_ms, limits.min_ttl, limits.max_ttl);
  }
  return task_plan{task_wire::sessions, ttl};
}

std::string iso8601(task_record::clock::time_point t) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
  std::time_t secs = static_cast<std::time_t>(ms / 1000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[40];
  std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", tm.tm_year + 1900, tm.tm_mon + 1,
                tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, static_cast<int>(ms % 1000));
  return buf;
}

namespace {

// The Task both wires share, with each one's field names.
json task_fields(const task_record& t) {
  json j = {{"taskId", t.id},
            {"status", std::string(to_string(t.status))},
            {"createdAt", iso8601(t.created)},
            {"lastUpdatedAt", iso8601(t.updated)}};
  if (!t.status_message.empty())
    j["statusMessage"] = t.status_message;
  if (t.wire == task_wire::extension) {
    j["ttlMs"] = t.ttl.count();
    j["pollIntervalMs"] = t.poll_interval.count();
  } else {
    j["ttl"] = t.ttl.count();
    j["pollInterval"] = t.poll_interval.count();
  }
  return j;
}

json error_json(const jsonrpc::error& e) {
  json j = {{"code", e.code}, {"message", e.message}};
  if (e.data)
    j["data"] = *e.data;
  return j;
}

} // namespace

json create_task_result(const task_record& t) {
  if (t.wire == task_wire::extension) {
    json j = task_fields(t);
    j["resultType"] = "task";
    return j;
  }
  return {{"task", task_fields(t)}};
}

json task_view(const task_record& t) {
  json j = task_fields(t);
  if (t.wire != task_wire::extension)
    return j;
  j["resultType"] = "complete";
  if (t.status == task_status::completed)
    j["result"] = t.result;
  else if (t.status == task_status::failed && t.error)
    j["error"] = error_json(*t.error);
  else if (t.status == task_status::input_required)
    j["inputRequests"] = t.input_requests;
  return j;
}

std::variant<json, jsonrpc::error> task_outcome(const task_record& t) {
  if (t.status == task_status::failed && t.error)
    return *t.error;
  if (t.status == task_status::cancelled)
    return jsonrpc::error{jsonrpc::code::internal_error, "Task " + t.id + " was cancelled", std::nullopt};
  json result = t.result.is_object() ? t.result : json::object();
  result["_meta"][std::string(related_task_key)] = {{"taskId", t.id}};
  return result;
}

json status_params(const task_record& t) { return task_fields(t); }

namespace {

std::int64_t ms_of(task_record::clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(t.time_since_epoch()).count();
}

task_record::clock::time_point at_ms(std::int64_t ms) {
  return task_record::clock::time_point(std::chrono::duration_cast<task_record::clock::duration>(
    std::chrono::milliseconds(ms)));
}

} // namespace

json record_json(const task_record& t) {
  json j = {{"id", t.id},
            {"subject", t.subject},
            {"owner", t.owner},
            {"session", t.session_id},
            {"wire", t.wire == task_wire::extension ? "extension" : "sessions"},
            {"status", std::string(to_string(t.status))},
            {"message", t.status_message},
            {"created", ms_of(t.created)},
            {"updated", ms_of(t.updated)},
            {"ttl", t.ttl.count()},
            {"poll", t.poll_interval.count()},
            {"result", t.result},
            {"inputs", t.input_requests},
            {"answers", t.answers},
            {"state", t.handler_state},
            {"node", t.node}};
  if (t.error)
    j["error"] = error_json(*t.error);
  return j;
}

std::optional<task_record> record_from_json(const json& j) {
  if (!j.is_object() || !j.contains("id") || !j["id"].is_string())
    return std::nullopt;
  try {
    task_record t;
    t.id = j["id"];
    t.subject = j.value("subject", "");
    t.owner = j.value("owner", "");
    t.session_id = j.value("session", "");
    t.wire = j.value("wire", "") == "extension" ? task_wire::extension : task_wire::sessions;
    auto status = j.value("status", "failed");
    t.status = status == "working"          ? task_status::working
               : status == "input_required" ? task_status::input_required
               : status == "completed"      ? task_status::completed
               : status == "cancelled"      ? task_status::cancelled
                                            : task_status::failed;
    t.status_message = j.value("message", "");
    t.created = at_ms(j.value("created", std::int64_t{0}));
    t.updated = at_ms(j.value("updated", std::int64_t{0}));
    t.ttl = std::chrono::milliseconds(j.value("ttl", std::int64_t{0}));
    t.poll_interval = std::chrono::milliseconds(j.value("poll", std::int64_t{0}));
    t.result = j.value("result", json());
    t.input_requests = j.value("inputs", json::object());
    t.answers = j.value("answers", json::object());
    t.handler_state = j.value("state", json());
    t.node = j.value("node", "");
    if (j.contains("error") && j["error"].is_object())
      t.error = jsonrpc::error{j["error"].value("code", 0), j["error"].value("message", ""),
                               j["error"].contains("data") ? std::optional<json>(j["error"]["data"]) : std::nullopt};
    return t;
  } catch (const json::exception&) {
    return std::nullopt;
  }
}

jsonrpc::error unknown_task(const std::string& id) {
  return {jsonrpc::code::invalid_params, "Unknown task: " + id, json{{"taskId", id}}};
}

} // namespace cafmcp::protocol

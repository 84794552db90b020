#include <atomic>
#include <random>

#include "cafmcp/json_rpc.hpp"

#include "actors/post.hpp"
#include "actors/request_context_impl.hpp"
#include "actors/task_service.hpp"
#include "foundation/json_dismantle.hpp"

namespace cafmcp {

namespace {

// "cafmcp-<random>-": the ids of this process's requests to clients. In a
// cluster an answer may reach another node, which hands it to every node:
// only the node that asked may know the id.
const std::string& ask_id_prefix() {
  static const std::string prefix = [] {
    std::random_device rd;
    static constexpr char digits[] = "0123456789abcdef";
    std::string p = "cafmcp-";
    for (int i = 0; i < 8; ++i)
      p += digits[rd() & 15];
    return p + "-";
  }();
  return prefix;
}

} // namespace

// A call's params are destroyed with its context, on every call.
request_context::impl::~impl() { dismantle(call.params); }

request_context::impl::impl(actors::call c, std::chrono::milliseconds timeout)
  : call(std::move(c)), default_timeout(timeout) {
  if (call.params.is_object() && call.params.contains("_meta") && call.params["_meta"].is_object()) {
    meta = call.params["_meta"];
    if (auto it = meta.find("progressToken");
        it != meta.end() && (it->is_string() || it->is_number_integer()))
      progress_token = *it;
  }
  if (call.env->stateless) {
    answers = json::object();
    handler_state = json::object();
    if (call.request_state.is_object()) {
      if (auto a = call.request_state.find("answers"); a != call.request_state.end() && a->is_object())
        answers = *a;
      if (auto h = call.request_state.find("state"); h != call.request_state.end() && !h->is_null())
        handler_state = *h;
    }
    if (call.params.is_object())
      if (auto r = call.params.find("inputResponses"); r != call.params.end() && r->is_object())
        for (auto& [k, v] : r->items())
          answers[k] = v;
  }
}

namespace {

// The client capability a server->client method needs.
std::string_view capability_for(std::string_view method) {
  if (method.rfind("sampling/", 0) == 0)
    return "sampling";
  if (method.rfind("elicitation/", 0) == 0)
    return "elicitation";
  if (method.rfind("roots/", 0) == 0)
    return "roots";
  return {};
}

} // namespace

void request_context::impl::emit(const json& notification) const {
  if (!call.task_id.empty()) {
    // The call was answered with its task. 2025-11-25: what the handler
    // reports goes to the session unrelated to any request, naming the task.
    // 2026-07-28: no stream outlives the request; it becomes the task's
    // statusMessage, which tasks/get shows.
    if (call.env->stateless) {
      if (tasks)
        tasks->note(call.task_id, notification);
      return;
    }
    json n = notification;
    if (!n["params"].is_object())
      n["params"] = json::object();
    n["params"]["_meta"][std::string(protocol::related_task_key)] = {{"taskId", call.task_id}};
    actors::post(call.env->session, actors::tell_atom::value, std::move(n));
    return;
  }
  actors::post(call.env->session, actors::emit_atom::value, call.key,
                 std::make_shared<const std::string>(jsonrpc::wire_text(notification)));
}

request_context::request_context(std::shared_ptr<impl> p) : impl_(std::move(p)) {}
request_context::~request_context() = default;

void request_context::progress(double progress, std::optional<double> total,
                               std::optional<std::string> message) {
  auto& d = *impl_;
  if (!d.progress_token || d.call.cancelled->load())
    return;
  if (d.last_progress && progress <= *d.last_progress)
    return; // the spec requires progress to increase
  d.last_progress = progress;
  json params = {{"progressToken", *d.progress_token}, {"progress", progress}};
  if (total)
    params["total"] = *total;
  if (message)
    params["message"] = *message;
  d.emit(jsonrpc::notification_message("notifications/progress", std::move(params)));
}

void request_context::log(log_level level, json data, std::string logger) {
  auto& d = *impl_;
  if (static_cast<int>(level) < d.call.env->log_level->load())
    return;
  json params = {{"level", to_string(level)}, {"data", std::move(data)}};
  if (!logger.empty())
    params["logger"] = std::move(logger);
  d.emit(jsonrpc::notification_message("notifications/message", std::move(params)));
}

bool request_context::cancelled() const { return impl_->call.cancelled->load(); }

json request_context::request(std::string method, json params,
                              std::optional<std::chrono::milliseconds> timeout) {
  static std::atomic<std::uint64_t> next_id{0};
  auto& d = *impl_;
  if (d.call.env->stateless) {
    // In a task too: the input waits in the task (input_required) until
    // tasks/update brings it, and the handler runs again with it.
    if (auto cap = capability_for(method); !cap.empty())
      require_client_capability(cap);
    auto key = "cafmcp-" + std::to_string(d.inputs_asked++);
    if (auto answer = input_response(key))
      return *answer;
    throw input_required{json{{key, {{"method", std::move(method)}, {"params", std::move(params)}}}},
                         d.handler_state};
  }
  if (d.call.cancelled->load())
    throw client_request_error(jsonrpc::code::internal_error, "request was cancelled");
  if (d.quick)
    throw client_request_error(jsonrpc::code::internal_error,
                               "a quick handler cannot ask the client (" + method
                                 + "): it runs on its session's actor, which would deliver the answer");
  actors::client_ask ask;
  ask.id = ask_id_prefix() + std::to_string(++next_id);
  ask.method = std::move(method);
  ask.params = std::move(params);
  // A task's handler asking (2025-11-25): the task reads input_required
  // meanwhile, and the request names its task.
  struct input_wait {
    actors::task_service* tasks;
    const std::string* id;
    input_wait(actors::task_service* t, const std::string* i) : tasks(t), id(i) {
      if (tasks)
        tasks->waiting_for_input(*id, true);
    }
    ~input_wait() {
      if (tasks)
        tasks->waiting_for_input(*id, false);
    }
  };
  bool in_task = !d.call.task_id.empty() && d.tasks;
  if (in_task) {
    if (!ask.params.is_object())
      ask.params = json::object();
    ask.params["_meta"][std::string(protocol::related_task_key)] = {{"taskId", d.call.task_id}};
  }
  input_wait waiting(in_task ? d.tasks.get() : nullptr, &d.call.task_id);
  ask.answer = std::make_shared<std::promise<protocol::outcome>>();
  auto answer = ask.answer->get_future();
  auto id = ask.id;
  caf::anon_send(d.call.env->session, actors::ask_atom::value, d.call.key, std::move(ask));
  if (answer.wait_for(timeout.value_or(d.default_timeout)) != std::future_status::ready) {
    caf::anon_send(d.call.env->session, actors::forget_atom::value, id);
    throw client_request_error(jsonrpc::code::internal_error, "client did not answer " + id + " in time");
  }
  protocol::outcome out;
  try {
    out = answer.get();
  } catch (const std::future_error&) { // the session ended: the promise died with it
    throw client_request_error(jsonrpc::code::internal_error, "session ended");
  }
  if (auto* err = std::get_if<jsonrpc::error>(&out))
    throw client_request_error(err->code, err->message, err->data);
  return std::get<json>(std::move(out));
}

bool request_context::continue_as_task() {
  auto& d = *impl_;
  if (!d.call.task_id.empty())
    return true;
  if (!d.call.task_plan || !d.tasks || !d.job)
    return false;
  auto started = d.tasks->start(d.call, *d.job);
  if (auto* refused = std::get_if<jsonrpc::error>(&started))
    throw request_refused{refused->code, refused->message, refused->data};
  auto& s = std::get<actors::task_service::started>(started);
  // Answered now, durably created: a tasks/get right after finds it.
  caf::anon_send(d.call.env->session, actors::reply_atom::value, d.call.key,
                 protocol::outcome{protocol::create_task_result(s.record)});
  d.call.task_id = s.record.id;
  d.call.cancelled = std::move(s.cancelled); // the task's: the session may end, the task goes on
  return true;
}

const std::string& request_context::task_id() const { return impl_->call.task_id; }

void request_context::release_stream() {
  caf::anon_send(impl_->call.env->session, actors::release_atom::value, impl_->call.key);
}

const json& request_context::client_capabilities() const { return impl_->call.env->client_capabilities; }
void request_context::require_client_capability(std::string_view name) const {
  const auto& caps = impl_->call.env->client_capabilities;
  if (caps.is_object() && caps.contains(name))
    return;
  throw request_refused{jsonrpc::code::missing_client_capability,
                        "Missing required client capability: " + std::string(name),
                        json{{"requiredCapabilities", {{std::string(name), json::object()}}}}};
}

bool request_context::stateless() const { return impl_->call.env->stateless; }

std::optional<json> request_context::input_response(const std::string& key) const {
  if (auto it = impl_->answers.find(key); it != impl_->answers.end())
    return *it;
  return std::nullopt;
}

const json& request_context::request_state() const {
  static const json none = json::object(); // not a 2026-07-28 request: never a round before
  return impl_->handler_state.is_null() ? none : impl_->handler_state;
}

const json& request_context::meta() const { return impl_->meta; }
const std::string& request_context::session_id() const { return impl_->call.env->session_id; }
const auth::identity* request_context::caller() const { return impl_->call.caller.get(); }

} // namespace cafmcp

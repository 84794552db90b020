#include "actors/request_context_impl.hpp"

#include <atomic>

namespace cafmcp {

request_context::impl::impl(actors::call c, std::chrono::milliseconds timeout)
  : call(std::move(c)), default_timeout(timeout) {
  if (call.params.is_object() && call.params.contains("_meta")
      && call.params["_meta"].is_object()) {
    meta = call.params["_meta"];
    if (auto it = meta.find("progressToken");
        it != meta.end() && (it->is_string() || it->is_number_integer()))
      progress_token = *it;
  }
}

void request_context::impl::emit(const json& notification) const {
  caf::anon_send(call.env->session, actors::emit_atom::value, call.key,
                 std::make_shared<const std::string>(notification.dump()));
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
  d.emit({{"jsonrpc", "2.0"}, {"method", "notifications/progress"}, {"params", params}});
}

void request_context::log(log_level level, json data, std::string logger) {
  auto& d = *impl_;
  if (static_cast<int>(level) < d.call.env->log_level->load())
    return;
  json params = {{"level", to_string(level)}, {"data", std::move(data)}};
  if (!logger.empty())
    params["logger"] = std::move(logger);
  d.emit({{"jsonrpc", "2.0"}, {"method", "notifications/message"}, {"params", params}});
}

bool request_context::cancelled() const { return impl_->call.cancelled->load(); }

json request_context::request(std::string method, json params, std::chrono::milliseconds timeout) {
  static std::atomic<std::uint64_t> next_id{0};
  auto& d = *impl_;
  if (d.call.cancelled->load())
    throw client_request_error(jsonrpc::code::internal_error, "request was cancelled");
  actors::client_ask ask;
  ask.id = "cafmcp-" + std::to_string(++next_id);
  ask.method = std::move(method);
  ask.params = std::move(params);
  ask.answer = std::make_shared<std::promise<protocol::outcome>>();
  auto answer = ask.answer->get_future();
  auto id = ask.id;
  caf::anon_send(d.call.env->session, actors::ask_atom::value, d.call.key, std::move(ask));
  if (answer.wait_for(timeout) != std::future_status::ready) {
    caf::anon_send(d.call.env->session, actors::forget_atom::value, id);
    throw client_request_error(jsonrpc::code::internal_error,
                               "client did not answer " + id + " in time");
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

void request_context::release_stream() {
  caf::anon_send(impl_->call.env->session, actors::release_atom::value, impl_->call.key);
}

const json& request_context::client_capabilities() const {
  return impl_->call.env->client_capabilities;
}
const json& request_context::meta() const { return impl_->meta; }
const std::string& request_context::session_id() const { return impl_->call.env->session_id; }

} // namespace cafmcp

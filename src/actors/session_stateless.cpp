// A session actor's 2026-07-28 requests: each stands alone, the client's
// facts come from its `_meta`, answers take that revision's shape, and a
// subscriptions/listen stream stays open as long as its request. The
// 2025-11-25 lifecycle (initialize, subscriptions, log level) is session.cpp's.
#include "cafmcp/protocol_version.hpp"

#include "actors/runtime.hpp"
#include "actors/session_ops.hpp"
#include "protocol/stateless.hpp"

namespace cafmcp::actors::session_ops {

// A stateless request's answer in its revision's shape.
protocol::outcome finish_stateless(self_ptr self, const std::string& key, protocol::outcome out) {
  auto& st = self->state;
  auto it = st.stateless.find(key);
  if (it == st.stateless.end())
    return out;
  if (auto* result = std::get_if<json>(&out))
    protocol::finish_stateless_result(it->second.method, *result, *st.rt->options, it->second.per_caller);
  else
    out = protocol::stateless_error(std::get<jsonrpc::error>(std::move(out)));
  st.stateless.erase(it);
  return out;
}

// A subscriptions/listen stream: registered with the notifier, which sends
// the acknowledgement first; the request stays open until the client
// cancels it or leaves.
void listen(self_ptr self, const jsonrpc::request& req, const std::string& key, const json& client_capabilities) {
  auto& st = self->state;
  const auto& opts = *st.rt->options;
  auto parsed = protocol::read_listen_filter(req.params.value_or(json::object()), opts.max_uris_per_listener);
  if (auto* err = std::get_if<jsonrpc::error>(&parsed))
    return fail(self, req.id, *err);
  auto filter = std::get<protocol::listen_filter>(std::move(parsed));
  // Honour only what this server offers.
  if (!opts.subscriptions)
    filter.uris.clear();
  else if (opts.subscribable)
    std::erase_if(filter.uris, [&](const std::string& u) { return !opts.subscribable(u); });
  // Task notifications are the tasks extension's: a client that asks for
  // them without declaring it is refused (-32021), as the extension says;
  // only the tasks this caller may read are followed.
  if (!filter.task_ids.empty()) {
    if (auto refused = protocol::extension_refusal(client_capabilities))
      return fail(self, req.id, *refused);
    std::string who = st.caller ? st.caller->subject : std::string();
    std::erase_if(filter.task_ids, [&](const std::string& id) { return !st.rt->tasks->visible_to(id, who); });
  }
  st.listens.insert(key);
  self
    ->request(st.rt->notifier(), ask_timeout, listen_atom::value,
              listen_request{session_link{handle_of(self), st.out, st.id}, key, std::move(filter)})
    .then(
      [self, id = req.id, key](protocol::outcome& out) {
        if (auto* err = std::get_if<jsonrpc::error>(&out)) {
          self->state.listens.erase(key);
          fail(self, id, *err);
        }
      },
      [self, id = req.id, key](caf::error& e) {
        self->state.listens.erase(key);
        fail(self, id, error_of(jsonrpc::code::internal_error, self->system().render(e)));
      });
}

// 2026-07-28: no session state; the client's facts come from `_meta`.
void serve_stateless(self_ptr self, jsonrpc::request& req, const std::string& key) {
  auto& st = self->state;
  st.stateless[key] = {req.method, st.caller != nullptr};
  const json params = req.params.value_or(json::object());
  auto meta = protocol::read_request_meta(params);
  if (auto* err = std::get_if<jsonrpc::error>(&meta))
    return fail(self, req.id, *err);
  if (protocol::removed_in_stateless(req.method))
    return fail(self, req.id,
                error_of(jsonrpc::code::method_not_found, "Method not found: " + req.method
                                                            + " is not part of protocol "
                                                            + std::string(stateless_protocol_version)));
  auto& m = std::get<protocol::request_meta>(meta);
  if (req.method == "subscriptions/listen")
    return listen(self, req, key, m.client_capabilities);
  auto env = std::make_shared<session_env>();
  env->session = handle_of(self);
  env->session_id = st.id;
  env->protocol_version = m.protocol_version;
  env->client_capabilities = std::move(m.client_capabilities);
  // No `_meta` log level: no log messages at all.
  env->log_level = std::make_shared<std::atomic<int>>(m.level ? static_cast<int>(*m.level)
                                                              : static_cast<int>(log_level::emergency) + 1);
  env->stateless = true;
  json state;
  if (auto it = params.find("requestState"); it != params.end()) {
    auto opened = it->is_string() ? st.rt->request_state.open(it->get<std::string>()) : std::nullopt;
    if (!opened)
      return fail(self, req.id,
                  error_of(jsonrpc::code::invalid_params,
                           "requestState integrity check failed: it was not issued "
                           "by this server or was altered"));
    state = std::move(*opened);
  }
  forward(self, req, key, std::move(env), std::move(state));
}

} // namespace cafmcp::actors::session_ops

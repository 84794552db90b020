#include "actors/notifier.hpp"

#include "actors/runtime.hpp"

namespace cafmcp::actors {
namespace {

void forget(notifier_state& st, std::uint64_t id) {
  st.index.drop(id);
  st.sessions.erase(id);
}

// One send, wrapped in its own span. A full or closed connection is the
// session's to end (the client may resume); the notifier never waits.
void deliver(notifier_actor::pointer self, runtime& rt, notifier_state::member& m,
             const frame& f, std::string_view method, const trace_context& parent) {
  auto span = start_span(rt.tracing(), "send " + std::string(method), span_kind::producer, parent);
  if (span) {
    span->set_attribute("mcp.method.name", std::string(method));
    span->set_attribute("mcp.session.id", m.link.id);
  }
  if (!m.link.out->send(f, routing{}))
    self->send(m.link.handle, close_atom::value);
}

frame serialize_once(const json& message) {
  return std::make_shared<const std::string>(message.dump());
}

} // namespace

notifier_actor::behavior_type change_notifier(notifier_actor::pointer self,
                                              std::shared_ptr<runtime> rt) {
  auto& st = *rt->notifier_data;
  // A restarted notifier watches the sessions its predecessor knew; one
  // that died meanwhile produces a down message right away.
  for (auto& [id, m] : st.sessions)
    self->monitor(m.link.handle);
  self->set_down_handler(
    [rt](caf::down_msg& dm) { forget(*rt->notifier_data, dm.source.id()); });
  return {
    [self, rt](join_atom, session_link& link) {
      auto id = link.handle.id();
      self->monitor(link.handle);
      rt->notifier_data->sessions[id] = notifier_state::member{std::move(link), false};
    },
    [rt](activate_atom, session_actor& s) {
      if (auto it = rt->notifier_data->sessions.find(s.id()); it != rt->notifier_data->sessions.end())
        it->second.active = true;
    },
    [rt](sub_atom, session_actor& s, std::string& uri, bool is_template) -> protocol::outcome {
      auto& st = *rt->notifier_data;
      if (!st.sessions.count(s.id()))
        return jsonrpc::error{jsonrpc::code::internal_error, "session is closing", std::nullopt};
      auto limit = rt->options->max_subscriptions_per_session;
      using o = protocol::subscription_index::outcome;
      if (st.index.subscribe(s.id(), uri, is_template, limit) == o::over_limit)
        return jsonrpc::error{jsonrpc::code::invalid_params,
                              "Subscription limit reached (" + std::to_string(limit)
                                + " per session)",
                              json{{"uri", uri}, {"limit", limit}}};
      return json::object();
    },
    [rt](unsub_atom, session_actor& s, std::string& uri) -> protocol::outcome {
      rt->notifier_data->index.unsubscribe(s.id(), uri);
      return json::object(); // idempotent: unknown subscriptions are fine
    },
    [self, rt](change_atom, protocol::change& c, trace_context& trace) {
      auto& st = *rt->notifier_data;
      auto method = protocol::list_changed_method(c.kind);
      auto span = start_span(rt->tracing(), "broadcast " + std::string(method),
                             span_kind::internal, trace);
      auto f = serialize_once(protocol::list_changed_notification(c, rt->options->list_changed_metadata));
      ++st.broadcasts;
      auto ctx = span ? span->context() : trace;
      std::size_t n = 0;
      for (auto& [id, m] : st.sessions)
        if (m.active) {
          deliver(self, *rt, m, f, method, ctx);
          ++n;
        }
      st.deliveries += n;
      if (span) {
        span->set_attribute("mcp.method.name", std::string(method));
        span->set_attribute("cafmcp.operation", std::string(protocol::to_string(c.op)));
        span->set_attribute("cafmcp.subscriber_count", static_cast<std::int64_t>(n));
      }
    },
    [self, rt](updated_atom, std::string& uri, trace_context& trace) {
      auto& st = *rt->notifier_data;
      auto targets = st.index.subscribers_of(uri);
      if (targets.empty())
        return;
      constexpr std::string_view method = "notifications/resources/updated";
      auto span = start_span(rt->tracing(), "broadcast " + std::string(method),
                             span_kind::internal, trace);
      auto f = serialize_once(protocol::resource_updated_notification(uri));
      ++st.broadcasts;
      auto ctx = span ? span->context() : trace;
      std::size_t n = 0;
      for (auto id : targets)
        if (auto it = st.sessions.find(id); it != st.sessions.end() && it->second.active) {
          deliver(self, *rt, it->second, f, method, ctx);
          ++n;
        }
      st.deliveries += n;
      if (span) {
        span->set_attribute("mcp.method.name", std::string(method));
        span->set_attribute("mcp.resource.uri", uri);
        span->set_attribute("cafmcp.subscriber_count", static_cast<std::int64_t>(n));
      }
    },
    [rt](stats_atom) -> server_stats {
      auto& st = *rt->notifier_data;
      server_stats s;
      for (auto& [id, m] : st.sessions)
        s.sessions += m.active ? 1 : 0;
      s.subscriptions = st.index.subscriptions();
      s.subscribed_uris = st.index.subscribed_uris();
      s.broadcasts = st.broadcasts;
      s.deliveries = st.deliveries;
      s.server_restarts = rt->server_restarts.load();
      s.notifier_restarts = rt->notifier_restarts.load();
      return s;
    },
  };
}

} // namespace cafmcp::actors

#include "actors/notifier.hpp"

#include <map>

#include "cafmcp/json_rpc.hpp"

#include "actors/post.hpp"
#include "actors/runtime.hpp"
#include "foundation/prefetch.hpp"
#include "protocol/request_span.hpp"
#include "protocol/session_replay.hpp"

namespace cafmcp::actors {
namespace {

constexpr std::uint64_t listener_bit = std::uint64_t{1} << 63;

void drop_listener(notifier_state& st, std::uint64_t lid) {
  st.index.drop(lid);
  auto l = st.listeners.find(lid);
  if (l == st.listeners.end())
    return;
  for (auto& task : l->second.req.filter.task_ids) {
    auto [from, to] = st.task_listeners.equal_range(task);
    for (auto it = from; it != to;)
      it = it->second == lid ? st.task_listeners.erase(it) : std::next(it);
  }
  st.listeners.erase(l);
}

void forget(notifier_state& st, std::uint64_t id) {
  st.index.drop(id);
  if (auto it = st.sessions.find(id); it != st.sessions.end()) {
    if (it->second.active)
      --st.active_sessions;
    if (auto n = st.by_name.find(it->second.link.id); n != st.by_name.end() && n->second == id)
      st.by_name.erase(n);
    st.sessions.erase(it);
  }
  auto [from, to] = st.listeners_of_session.equal_range(id);
  for (auto it = from; it != to; ++it)
    drop_listener(st, it->second);
  st.listeners_of_session.erase(from, to);
}

// Ends a listen stream: removes it and forgets it as its session's.
void unlisten(notifier_state& st, std::uint64_t session, const std::string& key) {
  auto [from, to] = st.listeners_of_session.equal_range(session);
  for (auto it = from; it != to; ++it)
    if (auto l = st.listeners.find(it->second); l != st.listeners.end() && l->second.req.key == key) {
      drop_listener(st, it->second);
      st.listeners_of_session.erase(it);
      return;
    }
}

// The gauges a scrape reads, after every change of what they count (a
// store each: no scrape ever waits for the notifier).
void update_gauges(runtime& rt) {
  if (!rt.metrics)
    return;
  auto& st = *rt.notifier_data;
  rt.metrics->sessions.set(static_cast<std::int64_t>(st.active_sessions));
  rt.metrics->subscriptions.set(static_cast<std::int64_t>(st.index.subscriptions()));
  rt.metrics->listeners.set(static_cast<std::int64_t>(st.listeners.size()));
}

// A listener's copy: the once-serialized notification with its
// subscription id spliced in (no JSON work per listener).
void deliver(notifier_actor::pointer self, notifier_state::listener& l,
             const protocol::spliced_notification& n) {
  auto f = std::make_shared<const std::string>(n.with(l.req.key));
  if (!l.req.link.out->send(std::move(f), routing{l.req.key, false}))
    self->send(l.req.link.handle, close_atom::value);
}

// Views of what the caller holds for the call (a broadcast is synchronous).
struct broadcast_facts {
  std::string_view method;
  std::string_view uri;       // resources/updated, resource list changes
  std::string_view operation; // list changes
};

// One send. A full or closed connection is the session's to end (the
// client may resume); the notifier never waits. `burst`: more follow at once.
void deliver(notifier_actor::pointer self, notifier_state::member& m, const frame& f,
             const std::optional<log_mark>& mark, bool burst = false) {
  if (!m.link.out->send(f, routing{std::nullopt, false, mark, burst}))
    self->send(m.link.handle, close_atom::value);
}

// Calls `f` with each target in order. With thousands of sessions each
// one's memory is cold when its turn comes, and a send follows pointers
// (member, session, the session's stream and connection), each a wait on
// memory. So while `f` runs for target i, the lines of a later target's
// member are asked for, of a nearer one's session, and the next but few
// transports ask for their own (outbound::prefetch): three steps, each
// reading only what the one before brought in.
template <class F>
void each_target(const std::vector<notifier_state::member*>& targets, F&& f) {
  constexpr std::size_t d = prefetch_distance / 2;
  const auto n = targets.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i + 3 * d < n)
      prefetch_lines(targets[i + 3 * d], 2);
    if (i + 2 * d < n)
      prefetch_lines(targets[i + 2 * d]->link.out.get(), 2);
    if (i + d < n)
      targets[i + d]->link.out->prefetch();
    f(*targets[i]);
  }
}

// Clustered: where a message sits, the same on every node (see
// protocol/session_replay.hpp for the places).
std::optional<log_mark> mark_of(const notifier_state& st, std::uint32_t place) {
  if (!st.entry)
    return std::nullopt;
  return log_mark{st.entry->ms, st.entry->seq, place};
}

// What a broadcast sends: a JSON tree, or a resources/updated whose tree is
// made only when something goes into it (a span's trace context, a listen
// stream's subscription id). Without either, its bytes are written
// directly: one update at a time to one session (stdio), building and
// printing the tree was ~3.5k of the update's ~53k instructions.
class broadcast_message {
public:
  broadcast_message(json tree) : tree_(std::move(tree)) {} // NOLINT: a tree is a message as it is
  static broadcast_message resource_updated(std::string_view uri) {
    broadcast_message m{json()};
    m.updated_uri_ = uri;
    return m;
  }
  json& tree() {
    if (updated_uri_ && tree_.is_null())
      tree_ = protocol::resource_updated_notification(*updated_uri_);
    return tree_;
  }
  std::string wire_text() const {
    if (updated_uri_ && tree_.is_null())
      return protocol::resource_updated_wire_text(*updated_uri_);
    return jsonrpc::wire_text(tree_);
  }

private:
  json tree_;
  std::optional<std::string_view> updated_uri_; // the caller's, for the call
};

// Builds the bytes once (with the broadcast span's trace context in
// `_meta`, so a client can continue the trace) and hands the same buffer
// to every target.
void broadcast(notifier_actor::pointer self, runtime& rt, broadcast_message message,
               const broadcast_facts& facts, const trace_context& parent,
               const std::vector<notifier_state::member*>& targets,
               const std::vector<notifier_state::listener*>& listeners, std::optional<log_mark> mark) {
  auto& st = *rt.notifier_data;
  auto span = start_span(rt.tracing(), "broadcast ", facts.method, span_kind::internal, parent);
  auto ctx = span ? span->context() : parent;
  if (span)
    protocol::inject_trace_context(message.tree(), ctx);
  ++st.broadcasts;
  if (!listeners.empty()) {
    auto spliced = protocol::splice_subscription_id(message.tree());
    // Counted before the sends: a client that has the message then finds it
    // counted (a scrape after it arrived never falls short).
    if (rt.metrics)
      rt.metrics->notifications_delivered(facts.method, listeners.size());
    for (auto* l : listeners)
      deliver(self, *l, spliced);
    st.deliveries += listeners.size();
  }
  if (targets.empty())
    return;
  auto f = std::make_shared<const std::string>(message.wire_text());
  // More changes waiting (a storm): the transports may write this with
  // them. Alone (one update at a time): at once.
  const bool burst = !self->mailbox().empty();
  if (rt.metrics) // before the sends, as above
    rt.metrics->notifications_delivered(facts.method, targets.size());
  // A span around each send (the server is the CLIENT side of a
  // notification in the semantic conventions), recorded as a group.
  std::unique_ptr<send_span_group> sends;
  if (span) {
    span_attributes common = {{"mcp.method.name", std::string(facts.method)}};
    if (!facts.uri.empty())
      common.emplace_back("mcp.resource.uri", std::string(facts.uri));
    if (!facts.operation.empty())
      common.emplace_back("cafmcp.operation", std::string(facts.operation));
    sends = rt.tracing()->start_send_group("send " + std::string(facts.method), span_kind::client, ctx,
                                           std::move(common), targets.size());
  }
  if (!sends) {
    each_target(targets, [&](notifier_state::member& m) { deliver(self, m, f, mark, burst); });
  } else {
    // The sends run back to back: one send's end is the next one's start,
    // one clock read per send.
    auto start = unix_nano_now();
    each_target(targets, [&](notifier_state::member& m) {
      deliver(self, m, f, mark, burst);
      auto end = unix_nano_now();
      sends->record(m.link.id, start, end);
      start = end;
    });
  }
  st.deliveries += targets.size();
  if (span) {
    span->set_attribute("mcp.method.name", std::string(facts.method));
    if (!facts.uri.empty())
      span->set_attribute("mcp.resource.uri", std::string(facts.uri));
    if (!facts.operation.empty())
      span->set_attribute("cafmcp.operation", std::string(facts.operation));
    span->set_attribute("cafmcp.subscriber_count", static_cast<std::int64_t>(targets.size()));
  }
}

std::vector<notifier_state::member*> active_sessions(notifier_state& st) {
  std::vector<notifier_state::member*> targets;
  for (auto& [id, m] : st.sessions)
    if (m.active)
      targets.push_back(&m);
  return targets;
}

// list_changed to every operating session and the listen streams that want it.
void announce_change(notifier_actor::pointer self, runtime& rt, const protocol::change& c,
                     const trace_context& trace) {
  auto targets = active_sessions(*rt.notifier_data);
  std::vector<notifier_state::listener*> listeners;
  for (auto& [id, l] : rt.notifier_data->listeners)
    if (l.req.filter.wants(c.kind))
      listeners.push_back(&l);
  bool by_uri = c.kind == protocol::item_kind::resource || c.kind == protocol::item_kind::resource_template;
  broadcast(self, rt, protocol::list_changed_notification(c, rt.options->list_changed_metadata),
            {protocol::list_changed_method(c.kind), by_uri ? std::string_view(c.key) : std::string_view(),
             protocol::to_string(c.op)},
            trace, targets, listeners, mark_of(*rt.notifier_data, protocol::entry_place::list_change));
}

// A mutation's waiter wakes: the broadcasts before this are handed to every
// session. Its callback answers on this worker.
void settle(notifier_actor::pointer self, settlement_ptr& s) {
  running_here here(self);
  s.reset();
}

// resources/updated to the sessions and listen streams subscribed to `uri`.
void announce_updated(notifier_actor::pointer self, runtime& rt, const std::string& uri,
                      const trace_context& trace) {
  auto& st = *rt.notifier_data;
  std::vector<notifier_state::member*> targets;
  std::vector<notifier_state::listener*> listeners;
  for (auto id : st.index.subscribers_of(uri)) {
    if (id & listener_bit) {
      if (auto it = st.listeners.find(id); it != st.listeners.end())
        listeners.push_back(&it->second);
    } else if (auto it = st.sessions.find(id); it != st.sessions.end() && it->second.active) {
      targets.push_back(&it->second);
    }
  }
  if (targets.empty() && listeners.empty())
    return;
  broadcast(self, rt, broadcast_message::resource_updated(uri), {"notifications/resources/updated", uri, {}},
            trace, targets, listeners, mark_of(st, protocol::entry_place::updated));
}

// Changes were lost on the way (a cluster's outbox overflowed, or a node
// read the log after entries it needed were trimmed): which items changed
// is unknown, so everyone hears that everything may have. Each session
// hears `updated` for its own exact subscriptions in URI order (the places
// a replay on another node gives them too), each URI serialized once.
void resync(notifier_actor::pointer self, runtime& rt, const trace_context& trace) {
  auto& st = *rt.notifier_data;
  std::uint32_t place = 0;
  for (auto kind : protocol::resync_kinds) {
    std::vector<notifier_state::listener*> listeners;
    for (auto& [id, l] : st.listeners)
      if (l.req.filter.wants(kind))
        listeners.push_back(&l);
    broadcast(self, rt, protocol::plain_list_changed_notification(kind),
              {protocol::list_changed_method(kind), {}, "resync"}, trace, active_sessions(st), listeners,
              mark_of(st, place++));
  }
  std::map<std::string, frame> updated;
  for (auto& [id, m] : st.sessions) {
    if (!m.active)
      continue;
    place = protocol::entry_place::resync_updated_first;
    for (auto& uri : st.index.exact_uris_of(id)) {
      auto& f = updated[uri];
      if (!f)
        f = std::make_shared<const std::string>(
          jsonrpc::wire_text(protocol::resource_updated_notification(uri)));
      if (rt.metrics) // before the send, as in broadcast
        rt.metrics->notifications_delivered("notifications/resources/updated", 1);
      deliver(self, m, f, mark_of(st, place++), true); // a resync tells each session many
      ++st.deliveries;
    }
  }
  for (auto& uri : st.index.exact_uris()) {
    std::vector<notifier_state::listener*> listeners;
    for (auto id : st.index.subscribers_of(uri))
      if (id & listener_bit)
        if (auto it = st.listeners.find(id); it != st.listeners.end())
          listeners.push_back(&it->second);
    if (!listeners.empty())
      broadcast(self, rt, broadcast_message::resource_updated(uri),
                {"notifications/resources/updated", uri, {}}, trace, {}, listeners, std::nullopt);
  }
}

} // namespace

notifier_actor::behavior_type change_notifier(notifier_actor::pointer self, std::shared_ptr<runtime> rt) {
  auto& st = *rt->notifier_data;
  // A restarted notifier watches the sessions its predecessor knew; one
  // that died meanwhile produces a down message right away.
  for (auto& [id, m] : st.sessions)
    self->monitor(m.link.handle);
  update_gauges(*rt);
  self->set_down_handler([rt](caf::down_msg& dm) {
    forget(*rt->notifier_data, dm.source.id());
    update_gauges(*rt);
  });
  return {
    // A session exists (active: it saw `initialized`). Asked again when a
    // notifier died before answering: what is known already stays.
    [self, rt](join_atom, session_link& link, bool active) {
      auto& st = *rt->notifier_data;
      auto id = link.handle.id();
      auto handle = link.handle;
      auto name = link.id;
      auto [it, fresh] = st.sessions.try_emplace(id, notifier_state::member{std::move(link), false});
      if (fresh) {
        self->monitor(handle);
        if (rt->options->cluster.url.size())
          st.by_name[name] = id;
      }
      if (active && !it->second.active) {
        it->second.active = true;
        ++st.active_sessions;
        update_gauges(*rt);
      }
      return true;
    },
    // A session another node started, served here from now on: known,
    // subscribed and active at once (the client operates already).
    [self, rt](adopt_atom, session_link& link, subscription_list& subs) {
      auto& st = *rt->notifier_data;
      auto id = link.handle.id();
      self->monitor(link.handle);
      st.by_name[link.id] = id;
      for (auto& [uri, is_template] : subs)
        st.index.subscribe(id, uri, is_template, rt->options->max_subscriptions_per_session);
      auto& m = st.sessions[id];
      if (!m.active)
        ++st.active_sessions;
      m = notifier_state::member{std::move(link), true};
      update_gauges(*rt);
    },
    // Its state changed on another node (a subscription, the log level):
    // the copy here follows, in log order with the changes.
    [rt](restate_atom, std::string& name, subscription_list& subs, int level) {
      auto& st = *rt->notifier_data;
      auto n = st.by_name.find(name);
      if (n == st.by_name.end())
        return;
      auto m = st.sessions.find(n->second);
      if (m == st.sessions.end())
        return;
      st.index.drop(n->second);
      std::vector<std::string> uris;
      for (auto& [uri, is_template] : subs) {
        st.index.subscribe(n->second, uri, is_template, rt->options->max_subscriptions_per_session);
        uris.push_back(uri);
      }
      update_gauges(*rt);
      caf::anon_send(m->second.link.handle, restate_atom::value, std::move(uris), level);
    },
    [self](settle_atom, settlement_ptr& s) { settle(self, s); }, // the broadcasts before it are out
    [rt](sub_atom, session_actor& s, std::string& uri, bool is_template) -> protocol::outcome {
      auto& st = *rt->notifier_data;
      if (!st.sessions.count(s.id()))
        return jsonrpc::error{jsonrpc::code::internal_error, "session is closing", std::nullopt};
      auto limit = rt->options->max_subscriptions_per_session;
      using o = protocol::subscription_index::outcome;
      if (st.index.subscribe(s.id(), uri, is_template, limit) == o::over_limit)
        return jsonrpc::error{jsonrpc::code::invalid_params,
                              "Subscription limit reached (" + std::to_string(limit) + " per session)",
                              json{{"uri", uri}, {"limit", limit}}};
      update_gauges(*rt);
      return json::object();
    },
    [rt](unsub_atom, session_actor& s, std::string& uri) -> protocol::outcome {
      rt->notifier_data->index.unsubscribe(s.id(), uri);
      update_gauges(*rt);
      return json::object(); // idempotent: unknown subscriptions are fine
    },
    [self, rt](change_atom, protocol::change& c, trace_context& trace) { announce_change(self, *rt, c, trace); },
    [self, rt](updated_atom, std::string& uri, trace_context& trace) { announce_updated(self, *rt, uri, trace); },
    [self, rt](change_atom, protocol::change& c, trace_context& trace, settlement_ptr& s) {
      announce_change(self, *rt, c, trace);
      settle(self, s);
    },
    [self, rt](updated_atom, std::string& uri, trace_context& trace, settlement_ptr& s) {
      announce_updated(self, *rt, uri, trace);
      settle(self, s);
    },
    [self, rt](resync_atom, trace_context& trace) { resync(self, *rt, trace); },
    // The client ended the session on another node (HTTP DELETE): the copy
    // here ends too, and its requests in flight are answered so.
    [rt](close_atom, std::string& name) {
      auto& st = *rt->notifier_data;
      if (auto n = st.by_name.find(name); n != st.by_name.end())
        if (auto m = st.sessions.find(n->second); m != st.sessions.end())
          caf::anon_send(m->second.link.handle, close_atom::value);
    },
    // A logged message to one session's GET stream: sent by whichever node
    // serves the stream (every copy keeps it, as a broadcast).
    [self, rt](tell_atom, std::string& name, json& message) {
      auto& st = *rt->notifier_data;
      if (auto n = st.by_name.find(name); n != st.by_name.end())
        if (auto m = st.sessions.find(n->second); m != st.sessions.end())
          deliver(self, m->second, std::make_shared<const std::string>(jsonrpc::wire_text(message)),
                  mark_of(st, protocol::entry_place::session_message));
    },
    // A client's answer that reached another node: to this node's copy of
    // the session, whose handler may be the one waiting for it.
    [rt](answered_atom, std::string& name, std::string& ask_id, protocol::outcome& out) {
      auto& st = *rt->notifier_data;
      if (auto n = st.by_name.find(name); n != st.by_name.end())
        if (auto m = st.sessions.find(n->second); m != st.sessions.end())
          caf::anon_send(m->second.link.handle, answered_atom::value, std::move(ask_id), std::move(out));
    },
    [rt](mark_atom, log_mark& at) {
      rt->notifier_data->entry = at;
      rt->cluster->notifying(at);
    },
    [rt](listen_atom, listen_request& req) -> protocol::outcome {
      auto& st = *rt->notifier_data;
      auto limit = rt->options->max_listeners;
      if (st.listeners.size() >= limit)
        return jsonrpc::error{jsonrpc::code::invalid_params,
                              "subscriptions/listen: listener limit reached (" + std::to_string(limit)
                                + " per server); retry later",
                              json{{"limit", limit}}};
      auto session = req.link.handle.id();
      if (!st.sessions.count(session))
        return jsonrpc::error{jsonrpc::code::internal_error, "session is closing", std::nullopt};
      auto lid = listener_bit | ++st.next_listener;
      for (auto& uri : req.filter.uris)
        st.index.subscribe(lid, uri, false, rt->options->max_uris_per_listener);
      // The acknowledgement is the stream's first message: sent from here,
      // before this listener can be a target of any broadcast.
      auto ack = protocol::listen_acknowledgement(req.filter, json::parse(req.key));
      if (!req.link.out->send(std::make_shared<const std::string>(jsonrpc::wire_text(ack)),
                              routing{req.key, false})) {
        st.index.drop(lid);
        return jsonrpc::error{jsonrpc::code::internal_error, "connection gone", std::nullopt};
      }
      for (auto& task : req.filter.task_ids)
        st.task_listeners.emplace(task, lid);
      st.listeners_of_session.emplace(session, lid);
      st.listeners.emplace(lid, notifier_state::listener{std::move(req), session});
      update_gauges(*rt);
      return json::object();
    },
    // 2026-07-28: a task moved; its listeners get it as tasks/get would
    // show it now. Its last move (terminal) is its last notification.
    [self, rt](task_atom, std::string& task, json& detailed) {
      auto& st = *rt->notifier_data;
      auto [from, to] = st.task_listeners.equal_range(task);
      std::vector<notifier_state::listener*> listeners;
      for (auto it = from; it != to; ++it)
        if (auto l = st.listeners.find(it->second); l != st.listeners.end())
          listeners.push_back(&l->second);
      if (listeners.empty())
        return;
      broadcast(self, *rt, protocol::task_notification(std::move(detailed)), {"notifications/tasks", {}, {}},
                trace_context{}, {}, listeners, std::nullopt);
    },
    [rt](unlisten_atom, session_actor& s, std::string& key) {
      unlisten(*rt->notifier_data, s.id(), key);
      update_gauges(*rt);
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
      s.draining_sessions = rt->draining_sessions.load();
      s.listeners = st.listeners.size();
      return s;
    },
  };
}

} // namespace cafmcp::actors

#include "actors/server_actor.hpp"

#include "actors/call_route.hpp"
#include "actors/post.hpp"
#include "actors/runtime.hpp"
#include "actors/task_methods.hpp"
#include "actors/worker.hpp"
#include "protocol/lifecycle.hpp"
#include "protocol/replica.hpp"

namespace cafmcp::actors {
namespace {

// Which of a session's subscriptions are to a template's text.
subscription_list subscriptions_of(const protocol::registry& reg, const std::vector<std::string>& uris) {
  subscription_list subs;
  for (auto& u : uris)
    subs.emplace_back(u, reg.templates.count(u) > 0);
  return subs;
}

} // namespace

server_actor::behavior_type server_behavior(server_actor::pointer self, std::shared_ptr<runtime> rt) {
  return {
    [rt](init_atom, std::string& requested) -> json {
      return protocol::initialize_result(*rt->options, *rt->registry, requested);
    },
    // Marks the call taken as its last step: an actor is stopped between
    // messages, so a call whose handling began here is answered or handed
    // on; one still in the mailbox when this actor died was not, and its
    // session tells the client to retry (only that one: a handler that
    // already ran may have acted).
    [self, rt](rpc_atom, call& c) {
      auto taken = c.taken;
      if (is_task_method(c.method)) {
        serve_task_method(*rt, c, [session = c.env->session, key = c.key](protocol::outcome out) {
          caf::anon_send(session, reply_atom::value, key, std::move(out));
        });
        taken->store(true);
        return;
      }
      auto answer = [self](const call& c, protocol::outcome out) {
        self->send(c.env->session, reply_atom::value, c.key, std::move(out));
      };
      auto run_on_session = [self](call&& c, protocol::job&& job) {
        auto session = c.env->session;
        self->send(session, run_atom::value, std::move(c), std::move(job));
      };
      if (c.method == "tools/call") {
        // A session's copy of the tools was stale (or it had none): the
        // next calls it makes are served on the session.
        rt->tools.refresh(*rt->registry);
        auto* tool = protocol::named_tool(rt->registry->tools, c.params);
        serve_tool_call(*rt, tool, std::move(c), answer, run_on_session);
      } else {
        auto result = protocol::dispatch(*rt->registry, *rt->options, c.method, c.params, c.caller.get());
        route_call(*rt, std::move(c), std::move(result), nullptr, answer, run_on_session);
      }
      taken->store(true);
    },
    [self, rt](sub_atom, session_actor& s, std::string& uri, caller_ptr& who) -> caf::result<protocol::outcome> {
      const auto& reg = *rt->registry;
      bool is_template = reg.templates.count(uri) > 0;
      if (!is_template && !reg.knows_uri(uri))
        return protocol::outcome{protocol::resource_not_found(uri)};
      if (auto no = protocol::subscription_refusal(reg, uri, who.get()))
        return protocol::outcome{*no};
      return self->delegate(rt->notifier(), sub_atom::value, s, std::move(uri), is_template);
    },
    [self, rt](mutate_atom, mutation& m) {
      running_here here(self); // a callback told here answers on this worker
      auto span = start_span(rt->tracing(), "mutation ", m.what, span_kind::internal, m.trace);
      if (span)
        span->set_attribute("cafmcp.mutation", m.what);
      protocol::mutation_effect effect;
      try {
        effect = m.apply(*rt->registry);
      } catch (const std::exception& e) {
        effect.problem = e.what();
      }
      rt->tools.follow(*rt->registry); // before anyone hears of it (published_tools.hpp)
      if (!effect.applied) {
        if (span)
          span->set_error("rejected", effect.problem);
      } else if (effect.list_change || effect.updated_uri) {
        auto ctx = span ? span->context() : m.trace;
        // Ended before the notifier hears of it: whoever sees the broadcast
        // (or its send spans) finds the mutation span already exported.
        span.reset();
        if (rt->cluster) { // announced when read back from the log, as on every node
          protocol::log_record r;
          r.replica = protocol::replica_of(*rt->registry, effect);
          r.list_change = std::move(effect.list_change);
          r.updated_uri = std::move(effect.updated_uri);
          r.trace = ctx;
          rt->cluster->publish(std::move(r),
                               m.done ? std::make_shared<settlement>(std::move(m.done), true) : nullptr);
          return;
        }
        auto notifier = rt->notifier();
        // Whoever waits on the future wakes once these notifications are
        // out, and finds them sent if it then asks the notifier anything.
        // The settlement rides on the last of them: the notifier then knows
        // nothing follows and delivers at once (routing::burst).
        auto done = m.done ? settlement_ptr(std::make_shared<settlement>(std::move(m.done), true)) : nullptr;
        if (effect.list_change) {
          if (done && !effect.updated_uri)
            self->send(notifier, change_atom::value, std::move(*effect.list_change), ctx, std::move(done));
          else
            self->send(notifier, change_atom::value, std::move(*effect.list_change), ctx);
        }
        if (effect.updated_uri) {
          if (done)
            self->send(notifier, updated_atom::value, std::move(*effect.updated_uri), ctx, std::move(done));
          else
            self->send(notifier, updated_atom::value, std::move(*effect.updated_uri), ctx);
        }
        if (done) // neither changed: settled behind what is before it
          self->send(notifier, settle_atom::value, std::move(done));
        return;
      }
      if (m.done)
        m.done->settle(effect.applied);
    },
    [self, rt](adopt_atom, session_link& link, protocol::session_record& record) {
      self->send(rt->notifier(), adopt_atom::value, std::move(link),
                 subscriptions_of(*rt->registry, record.subscriptions));
    },
    [self, rt](updated_atom, std::string& uri, trace_context& trace) {
      if (rt->cluster) {
        protocol::log_record r;
        r.updated_uri = std::move(uri);
        r.trace = std::move(trace);
        rt->cluster->publish(std::move(r), nullptr);
        return;
      }
      self->send(rt->notifier(), updated_atom::value, std::move(uri), std::move(trace));
    },
    // Clustered: every change, this node's too, in log order. A data-only
    // change is made here first, so a client told of it finds it when it
    // reads. This node's own replicas are made again too: when two nodes
    // change one resource at once, the log's order decides on every node
    // (each made its own change first, and the other's after, otherwise).
    [self, rt](logged_atom, logged_change& lc) {
      auto& r = lc.record;
      // Entries the reader handed on were lost while this actor restarted:
      // what they said is not known here, so everyone re-reads everything.
      if (rt->logged_handled.exchange(lc.handed) + 1 != lc.handed)
        r.resync = true;
      if (!r.replica.is_null()) {
        protocol::apply_replica(*rt->registry, r.replica);
        rt->tools.follow(*rt->registry);
      }
      if (lc.history)
        return;
      auto notifier = rt->notifier();
      self->send(notifier, mark_atom::value, lc.at);
      // This node's own change: its settlement rides on the announcement
      // when nothing else of the entry follows, as on a single node, so the
      // notifier finds its mailbox empty and delivers at once.
      auto done = lc.own ? rt->cluster->delivered(r.seq) : nullptr;
      const bool carried = done && !r.resync && !r.message && (r.list_change || r.updated_uri);
      if (r.list_change) {
        if (carried && !r.updated_uri)
          self->send(notifier, change_atom::value, std::move(*r.list_change), r.trace, std::move(done));
        else
          self->send(notifier, change_atom::value, std::move(*r.list_change), r.trace);
      }
      if (r.updated_uri) {
        if (carried)
          self->send(notifier, updated_atom::value, std::move(*r.updated_uri), r.trace, std::move(done));
        else
          self->send(notifier, updated_atom::value, std::move(*r.updated_uri), r.trace);
      }
      if (r.resync)
        self->send(notifier, resync_atom::value, r.trace);
      // Another node changed a session's state: a copy of it here follows.
      // (This node's own session has its state already; an older snapshot
      // read back would only set it back for a moment.)
      if (r.session && r.session->record && !lc.own)
        self->send(notifier, restate_atom::value, r.session->id,
                   subscriptions_of(*rt->registry, r.session->record->subscriptions),
                   r.session->record->log_level);
      if (r.session && !r.session->record && !lc.own) // ended there: its copy here ends
        self->send(notifier, close_atom::value, r.session->id);
      if (r.message)
        self->send(notifier, tell_atom::value, std::move(r.message->id), std::move(r.message->message));
      if (r.answer && !lc.own)
        self->send(notifier, answered_atom::value, std::move(r.answer->id), std::move(r.answer->ask_id),
                   std::move(r.answer->answer));
      if (done && !carried)
        self->send(notifier, settle_atom::value, std::move(done));
    },
  };
}

} // namespace cafmcp::actors

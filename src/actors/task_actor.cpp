#include "actors/task_actor.hpp"

#include "cafmcp/json_rpc.hpp"

#include "protocol/task_moves.hpp"

namespace cafmcp::actors {

// -- task_answer ---------------------------------------------------------------

task_answer::~task_answer() {
  if (!reply_)
    return;
  try {
    reply_(otherwise_ ? otherwise_()
                      : protocol::outcome{jsonrpc::error{jsonrpc::code::internal_error,
                                                         "The task ended before answering", std::nullopt}});
  } catch (...) { // a destructor must not throw; the session may be gone
  }
}

void task_answer::operator()(protocol::outcome out) {
  if (!reply_)
    return;
  auto r = std::move(reply_);
  reply_ = nullptr;
  r(std::move(out));
}

// -- task_core -----------------------------------------------------------------

std::optional<task_actor> task_core::actor_of(const std::string& id) {
  std::lock_guard<std::mutex> g(mtx);
  if (auto it = live.find(id); it != live.end())
    return it->second;
  return std::nullopt;
}

std::optional<protocol::task_record> task_core::fail(const std::string& id, const std::string& why) {
  return store->modify(id, [&](protocol::task_record& t) {
    return protocol::fail_task(t, why, task_store::clock::now());
  });
}

protocol::outcome task_core::outcome_of(const std::string& id) {
  auto t = store->find(id);
  if (!t)
    return protocol::unknown_task(id);
  if (!protocol::is_terminal(t->status)) // its actor is gone, so the task can end no other way
    if (auto after = fail(id, "The task's actor ended before the task did"))
      t = after;
  return protocol::task_outcome(*t);
}

std::pair<protocol::outcome, std::optional<protocol::task_record>> task_core::cancel(const std::string& id) {
  std::optional<protocol::task_record> before;
  auto after = store->modify(id, [&](protocol::task_record& t) {
    before = t;
    return protocol::cancel_task(t, task_store::clock::now());
  });
  if (!before)
    return {protocol::unknown_task(id), std::nullopt};
  return {protocol::cancel_answer(*before, after), after};
}

// -- the actor -----------------------------------------------------------------

namespace {

struct task_actor_state {
  std::shared_ptr<task_core> core;
  std::string id;
  task_continuation k;
  std::vector<task_answer_ptr> waiters; // tasks/result, answered when it ends
};
using self_ptr = task_actor::stateful_pointer<task_actor_state>;

auto now() { return task_store::clock::now(); }

// The task ended: its handler may stop, its waiters get the outcome, and
// its actor ends (what arrives later is answered from the store).
void finish(self_ptr self, const protocol::outcome& out) {
  auto& st = self->state;
  st.k.cancelled->store(true);
  for (auto& w : st.waiters)
    (*w)(out);
  st.waiters.clear();
  self->quit();
}

// After every move of the record.
void changed(self_ptr self, const protocol::task_record& t) {
  auto& st = self->state;
  if (t.wire == protocol::task_wire::sessions && st.core->notify && st.k.c.env) // a session that ended drops it
    st.core->notify(st.k.c.env->session,
                    jsonrpc::notification_message("notifications/tasks/status", protocol::status_params(t)));
  if (st.core->watch)
    st.core->watch(t);
  if (protocol::is_terminal(t.status))
    finish(self, protocol::task_outcome(t));
}

// A move that did not apply: the record may have ended, or gone, without
// this actor (cancelled through another node, expired).
void moved_elsewhere(self_ptr self) {
  auto t = self->state.core->store->find(self->state.id);
  if (!t)
    finish(self, protocol::unknown_task(self->state.id));
  else if (protocol::is_terminal(t->status))
    finish(self, protocol::task_outcome(*t));
}

template <class Move>
std::optional<protocol::task_record> apply(self_ptr self, Move move) {
  auto after = self->state.core->store->modify(self->state.id, move);
  if (after)
    changed(self, *after);
  else
    moved_elsewhere(self);
  return after;
}

// Every input it asked for has come: the handler runs again with them.
void resume(self_ptr self, const protocol::task_record& t) {
  auto& st = self->state;
  if (!st.core->run) {
    if (auto after = st.core->fail(st.id, "The task cannot resume: its handler is not held by this server"))
      changed(self, *after);
    return;
  }
  auto c = st.k.c;
  c.request_state = {{"answers", t.answers}, {"state", t.handler_state}};
  st.core->run(st.k.job, std::move(c));
}

task_actor::behavior_type task_behavior(self_ptr self, std::shared_ptr<task_core> core, std::string id,
                                        task_continuation k) {
  auto& st = self->state;
  st.core = std::move(core);
  st.id = std::move(id);
  st.k = std::move(k);
  auto recheck_every = st.core->limits.poll_interval;
  if (st.core->store->shared())
    self->delayed_send(self, recheck_every, recheck_atom::value);
  using rec = protocol::task_record;
  return {
    [self](settle_atom, protocol::outcome& out) {
      auto limit = self->state.core->limits.max_result_bytes;
      apply(self, [&](rec& t) { return protocol::settle_task(t, std::move(out), limit, now()); });
    },
    [self](park_atom, json& requests, json& answers, json& state) {
      bool again = false;
      auto after = apply(self, [&](rec& t) {
        return protocol::park_task(t, std::move(requests), std::move(answers), std::move(state), now(), again);
      });
      if (after && again)
        resume(self, *after);
    },
    [self](note_atom, json& notification) {
      auto text = protocol::note_text(notification);
      self->state.core->store->modify(self->state.id,
                                      [&](rec& t) { return protocol::note_task(t, text, now()); });
    },
    [self](input_atom, bool waiting) {
      apply(self, [&](rec& t) { return protocol::await_input(t, waiting, now()); });
    },
    [self](update_atom, json& responses, task_answer_ptr& answer) {
      bool again = false;
      auto after = self->state.core->store->modify(
        self->state.id, [&](rec& t) { return protocol::answer_task(t, responses, now(), again); });
      (*answer)(protocol::task_ack()); // answers to nothing pending are ignored, as the spec says
      if (after) {
        changed(self, *after);
        if (again)
          resume(self, *after);
      }
    },
    [self](cancel_atom, task_answer_ptr& answer) {
      auto [out, after] = self->state.core->cancel(self->state.id);
      (*answer)(std::move(out));
      if (after)
        changed(self, *after);
      else
        moved_elsewhere(self);
    },
    [self](result_atom, task_answer_ptr& answer) {
      self->state.waiters.push_back(std::move(answer));
      moved_elsewhere(self); // ended without this actor: answered now
    },
    [self](expire_atom) { finish(self, protocol::unknown_task(self->state.id)); },
    [self](stop_atom, settlement_ptr& token) {
      if (auto after = self->state.core->fail(self->state.id, "The server stopped before the task ended"))
        changed(self, *after);
      else
        moved_elsewhere(self);
      self->quit(); // whatever the record says
      token.reset();
    },
    [self, recheck_every](recheck_atom) {
      moved_elsewhere(self);
      self->delayed_send(self, recheck_every, recheck_atom::value);
    },
  };
}

} // namespace

task_actor spawn_task_actor(caf::actor_system& sys, std::shared_ptr<task_core> core, std::string id,
                            task_continuation k) {
  auto flag = k.cancelled;
  auto h = sys.spawn(task_behavior, core, id, std::move(k));
  {
    std::lock_guard<std::mutex> g(core->mtx);
    core->live.emplace(id, h);
  }
  // Runs when it ends, however: it no longer runs the task here, and an
  // end that was not the task's own (an exception, a kill) fails the task.
  // Recorded before it is forgotten here: a tasks/result sent to it
  // meanwhile is dropped with its mailbox and answered from the record.
  h->attach_functor([core, id, flag](const caf::error& reason) {
    flag->store(true);
    if (reason)
      if (auto after = core->fail(id, "The task's actor ended (" + caf::to_string(reason) + ") before the task did"))
        if (core->watch)
          core->watch(*after);
    std::lock_guard<std::mutex> g(core->mtx);
    core->live.erase(id);
  });
  return h;
}

} // namespace cafmcp::actors

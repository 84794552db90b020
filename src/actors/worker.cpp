#include "actors/worker.hpp"

#include "actors/current_trace.hpp"
#include "actors/loop_unit.hpp"
#include "actors/post.hpp"
#include "actors/request_context_impl.hpp"
#include "actors/runtime.hpp"
#include "actors/task_service.hpp"

namespace cafmcp::actors {

trace_context& current_trace() {
  thread_local trace_context ctx;
  return ctx;
}

namespace {

// 2026-07-28 multi-round-trip: the handler needs the client's input. Every
// answer so far travels in the sealed requestState, so the retry (to any
// process holding the key) sees them all.
json input_required_result(const protocol::request_state_seal& seal, const request_context::impl& d,
                           input_required& ir) {
  json state = {{"answers", d.answers}, {"state", std::move(ir.state)}};
  return {{"resultType", "input_required"},
          {"inputRequests", std::move(ir.requests)},
          {"requestState", seal.seal(state)}};
}

// A handler thread's answer, on its way to the session through the loop
// the request came from: run there, it wakes the session on that loop
// (loop_unit), which answers the connection on the spot. Through CAF's
// scheduler it woke a CAF worker, which handed the frame to the loop: two
// wake-ups a call where this is one. Sent exactly once: a job the loop
// never runs (its door closed, the loop stopped with it queued) sends
// through the scheduler as it goes.
struct homebound_reply {
  homebound_reply(session_actor s, std::string k, protocol::outcome o)
    : session(std::move(s)), key(std::move(k)), out(std::move(o)) {}
  homebound_reply(const homebound_reply&) = delete;
  homebound_reply& operator=(const homebound_reply&) = delete;

  session_actor session;
  std::string key;
  protocol::outcome out;
  bool sent = false;

  void send(caf::execution_unit* unit) {
    sent = true;
    if (session)
      session->eq_impl(caf::make_message_id(), nullptr, unit, reply_atom::value, std::move(key), std::move(out));
  }
  ~homebound_reply() {
    if (!sent)
      send(nullptr);
  }
};

// Sent after every emit of the handler (from this thread, into the
// session's mailbox at once): the session sees progress and log messages
// before the result, whichever way the result goes.
void reply_to_session(loop_door* home, session_actor session, std::string key, protocol::outcome out) {
  if (!home)
    return caf::anon_send(session, reply_atom::value, std::move(key), std::move(out));
  auto reply = std::make_shared<homebound_reply>(std::move(session), std::move(key), std::move(out));
  std::function<void()> job = [reply] { reply->send(loop_unit::here()); };
  home->post(job); // refused (closed): the reply goes with the job, through the scheduler
}

// Where an asynchronous tool's answer goes: to its session, once (the
// first answer wins), from whichever thread gives it. Counted as a running
// actor until then, as a worker's call is: the actor system's shutdown
// waits for the answer. Dropped unanswered, it answers with an error.
// Given on an actor's thread (a mutation's callback: a running_here scope
// is open), it is posted there; from any other thread (one of the tool's
// own), it goes back through the loop the call came from, as a handler
// thread's answer does, and that loop awaits it until then
// (loop_door::expect).
class later_answer {
public:
  later_answer(const call& c, std::shared_ptr<loop_door> home)
    : session_(c.env->session), key_(c.key),
      registry_(caf::actor_cast<caf::abstract_actor*>(session_)->home_system().registry()), home_(std::move(home)) {
    registry_.inc_running();
    if (home_)
      home_->expect();
  }
  ~later_answer() {
    try {
      give(jsonrpc::error{jsonrpc::code::internal_error, "the handler ended without answering", std::nullopt});
    } catch (...) { // out of memory, in a destructor: the session's drain deadline answers
      if (!counted_out_.exchange(true))
        registry_.dec_running();
    }
  }
  later_answer(const later_answer&) = delete;
  later_answer& operator=(const later_answer&) = delete;

  void give(protocol::outcome out) {
    if (answered_.exchange(true))
      return;
    struct settle_after { // the loop awaits no more once the answer is on its way (or failed to be)
      loop_door* door;
      ~settle_after() {
        if (door)
          door->settle();
      }
    } settle{home_.get()};
    if (home_ && !current_unit())
      reply_to_session(home_.get(), session_, key_, std::move(out));
    else
      post(session_, reply_atom::value, key_, std::move(out));
    if (!counted_out_.exchange(true))
      registry_.dec_running();
  }

private:
  session_actor session_;
  std::string key_;
  caf::actor_registry& registry_;
  std::shared_ptr<loop_door> home_;
  std::atomic<bool> answered_{false};
  std::atomic<bool> counted_out_{false};
};

} // namespace

std::optional<protocol::outcome> run_call(const protocol::request_state_seal& seal,
                                         std::chrono::milliseconds timeout, protocol::job& job, call&& c,
                                         bool quick, const std::shared_ptr<task_service>& tasks,
                                         const std::shared_ptr<loop_door>& home) {
  // Only these may answer input_required (SEP-2322).
  bool may_ask = c.env->stateless
                 && (c.method == "tools/call" || c.method == "prompts/get" || c.method == "resources/read");
  trace_scope scope(c.trace);
  auto impl = std::make_shared<request_context::impl>(std::move(c), timeout);
  impl->quick = quick;
  impl->tasks = tasks;
  // A task keeps its job, to run it again with input; an asynchronous
  // tool's job is gone when it answers (and it is never a task).
  impl->job = job.start ? nullptr : &job;
  request_context ctx(impl);
  // An asynchronous tool answers through this, later; what it throws
  // before it answers, now, through the same.
  std::function<void(protocol::outcome)> answer_later;
  if (job.start)
    answer_later = [later = std::make_shared<later_answer>(
                      impl->call, home ? home : loop_unit::here() ? loop_unit::here()->door() : nullptr)](
                     protocol::outcome out) {
      later->give(std::move(out));
    };
  // Once the call became a task (before or while the handler ran), its
  // request was answered: what the handler ends with goes to the task.
  auto ended = [&](protocol::outcome out) -> std::optional<protocol::outcome> {
    if (answer_later) {
      answer_later(std::move(out));
      return std::nullopt;
    }
    if (impl->call.task_id.empty() || !tasks)
      return out;
    tasks->settle(impl->call.task_id, std::move(out));
    return std::nullopt;
  };
  try {
    if (job.start) {
      job.start(ctx, answer_later);
      return std::nullopt;
    }
    return ended(job.run(ctx));
  } catch (input_required& ir) {
    if (!impl->call.task_id.empty() && tasks && impl->call.env->stateless) {
      tasks->park(impl->call.task_id, std::move(ir.requests), impl->answers, std::move(ir.state));
      return std::nullopt;
    }
    if (may_ask && impl->call.task_id.empty())
      return ended(input_required_result(seal, *impl, ir));
    return ended(jsonrpc::error{jsonrpc::code::internal_error,
                                "input_required answers only 2026-07-28 tools/call, prompts/get "
                                "and resources/read",
                                std::nullopt});
  } catch (request_refused& r) {
    return ended(jsonrpc::error{r.code, std::move(r.message), std::move(r.data)});
  } catch (const std::exception& e) {
    return ended(jsonrpc::error{jsonrpc::code::internal_error, e.what(), std::nullopt});
  } catch (...) {
    // Anything else thrown would end the handler thread, and with it the
    // process (or, quick, the session's actor): the request fails instead.
    return ended(jsonrpc::error{jsonrpc::code::internal_error,
                                "the handler threw something that is not a std::exception", std::nullopt});
  }
}

namespace {

// A call on its way to a handler thread, and the loop it came from (its
// door, if it has one), which awaits the answer from the moment the call
// leaves it until the answer was posted or none will come (a task; an
// asynchronous tool, whose answer is awaited on its own: later_answer):
// loop_door::expect. Settled
// as the call goes, whether it ran or was dropped unrun.
struct worker_call {
  worker_call(protocol::job&& j, call&& cl, std::shared_ptr<loop_door> h)
    : job(std::move(j)), c(std::move(cl)), home(std::move(h)) {
    if (home)
      home->expect();
  }
  worker_call(const worker_call&) = delete;
  worker_call& operator=(const worker_call&) = delete;
  ~worker_call() {
    if (home)
      home->settle();
  }

  protocol::job job;
  call c;
  std::shared_ptr<loop_door> home;
};

} // namespace

void run_on_worker(runtime& rt, protocol::job&& job, call&& c) {
  // Counted as a running actor, as the detached actor per call it replaces
  // was: the actor system's shutdown waits for the call to answer.
  auto& registry = rt.system.registry();
  registry.inc_running();
  // The loop this runs on, if any, is the one the request came from.
  std::shared_ptr<loop_door> home;
  if (auto* unit = loop_unit::here())
    home = unit->door();
  auto work = std::make_shared<worker_call>(std::move(job), std::move(c), std::move(home));
  auto timeout = rt.options->client_request_timeout;
  // Copies: the runtime may go (with the last actor) while a call runs.
  rt.workers->run([seal = rt.request_state, timeout, work = std::move(work), &registry, tasks = rt.tasks]() mutable {
    {
      auto session = work->c.env->session;
      auto key = work->c.key;
      if (auto result = run_call(seal, timeout, work->job, std::move(work->c), false, tasks, work->home))
        reply_to_session(work->home.get(), std::move(session), std::move(key), std::move(*result));
    }
    work.reset(); // the call's handles go while the actor system still waits for us; the loop awaits no more
    registry.dec_running();
  });
}

} // namespace cafmcp::actors

// A session actor: the 2025-11-25 lifecycle (initialize, log level,
// subscriptions), requests forwarded to the server actor and their answers,
// cancellation, draining, and the actor's behaviour. 2026-07-28 requests
// are session_stateless.cpp's.
#include "actors/session.hpp"

#include "cafmcp/json_rpc.hpp"

#include "actors/call_route.hpp"
#include "actors/post.hpp"
#include "actors/runtime.hpp"
#include "actors/session_ops.hpp"
#include "actors/worker.hpp"
#include "foundation/json_dismantle.hpp"
#include "protocol/operation_metrics.hpp"
#include "protocol/request_span.hpp"
#include "protocol/stateless.hpp" // is_stateless_request: which path a request takes

namespace cafmcp::actors {
namespace session_ops {

jsonrpc::error error_of(int code, std::string message, std::optional<json> data) {
  return {code, std::move(message), std::move(data)};
}

// Every write to the client goes through here: a connection that cannot
// take more ends the session (never a silent drop).
void send_frame(self_ptr self, frame f, routing where);

void close_session(self_ptr self) {
  auto& st = self->state;
  if (st.closed)
    return;
  st.closed = true;
  if (st.draining)
    st.rt->draining_sessions.fetch_sub(1);
  if (st.opened && st.rt->metrics)
    st.rt->metrics->session_done(st.env ? st.env->protocol_version : std::string(), st.out->network_transport(),
                                 std::chrono::duration<double>(std::chrono::steady_clock::now() - *st.opened).count());
  for (auto& [key, c] : st.calls)
    c.cancelled->store(true);
  st.calls.clear();
  st.asks.clear(); // their workers see a broken promise: "session ended"
  st.out->close();
  self->quit();
}

// A draining session ends with its last request in flight.
void close_if_drained(self_ptr self) {
  if (self->state.draining && self->state.calls.empty() && self->state.pending_answers == 0)
    close_session(self);
}

// An answer another actor computes (session.hpp: pending_answers): owe()
// before the request, and each of its handlers wrapped in settles<Arg>().
void owe(self_ptr self) { ++self->state.pending_answers; }

template <class Arg, class F>
auto settles(self_ptr self, F f) {
  return [self, f = std::move(f)](Arg& x) mutable {
    --self->state.pending_answers;
    f(x);
    close_if_drained(self);
  };
}

void start_draining(self_ptr self) {
  auto& st = self->state;
  if (st.closed || st.draining)
    return;
  st.draining = true;
  st.rt->draining_sessions.fetch_add(1);
  // A listen stream never ends by itself: it ends now, with the result that
  // tells the client it was closed on purpose (not a broken stream).
  auto listens = std::move(st.listens);
  st.listens.clear();
  for (auto& key : listens) {
    self->send(st.rt->notifier(), unlisten_atom::value, handle_of(self), key);
    answer(self, *jsonrpc::from_key(key), protocol::listen_completion(json::parse(key)));
  }
  close_if_drained(self);
  if (!st.closed) // a handler that never returns must not hold the session
    self->delayed_send(self, st.rt->options->drain_timeout, close_atom::value);
}

void send_frame(self_ptr self, frame f, routing where) {
  if (self->state.closed)
    return;
  if (!self->state.out->send(std::move(f), where)) {
    std::fprintf(stderr, "cafmcp: session %s: outbound queue full or connection gone; closing\n",
                 self->state.id.c_str());
    close_session(self);
  }
}

// A request arrives: its span starts, its clock too (tracing or metrics on).
void observe_request(self_ptr self, const jsonrpc::request& req, const std::string& key) {
  auto& st = self->state;
  auto* metrics = st.rt->metrics.get();
  std::unique_ptr<span> s;
  if (auto* t = st.rt->tracing())
    s = protocol::start_request_span(
      t, req, {st.id, st.env ? st.env->protocol_version : std::string(), st.out->network_transport()});
  if (!s && !metrics)
    return;
  st.observed.erase(key); // a reused id replaces what it named
  st.observed.emplace(key, observed_request(std::move(s), metrics ? &metrics->active_requests : nullptr,
                                            protocol::metric_method_name(req.method)));
}

// How it ended, in its span and in mcp.server.operation.duration.
void end_observed(self_ptr self, const std::string& key, const protocol::outcome* out,
                  std::string_view error_type = {}) {
  auto& observed = self->state.observed;
  if (observed.empty())
    return;
  auto it = observed.find(key);
  if (it == observed.end())
    return;
  auto& o = it->second;
  std::string type = out ? protocol::error_type_of(*out) : std::string(error_type);
  if (o.span) {
    if (out)
      protocol::finish_request_span(*o.span, *out);
    else if (!type.empty())
      o.span->set_error(type, "cancelled by the client");
  }
  if (auto* metrics = self->state.rt->metrics.get())
    metrics->request_done(o.method, type,
                          std::chrono::duration<double>(std::chrono::steady_clock::now() - o.start).count());
  observed.erase(it);
}

// The request's span ends with its answer.
void end_span(self_ptr self, const std::string& key, const protocol::outcome& out) {
  end_observed(self, key, &out);
}

namespace {

// `key` is `id`'s (jsonrpc::to_key): a caller that has it does not make it
// again.
void answer_keyed(self_ptr self, const jsonrpc::request_id& id, const std::string& key, protocol::outcome out) {
  out = finish_stateless(self, key, std::move(out));
  end_span(self, key, out);
  std::string text;
  if (auto* result = std::get_if<json>(&out)) {
    text = jsonrpc::serialize_result(id, *result);
    dismantle(*result); // written: taken apart cheaply (json_dismantle.hpp)
  } else {
    text = jsonrpc::serialize_error(id, std::get<jsonrpc::error>(out));
  }
  send_frame(self, std::make_shared<const std::string>(std::move(text)), routing{key, true});
}

} // namespace

void answer(self_ptr self, const jsonrpc::request_id& id, protocol::outcome out) {
  answer_keyed(self, id, jsonrpc::to_key(id), std::move(out));
}

// Sends one frame when the last holder lets go: the answer to a request
// that changed a clustered session's state, released once the new state is
// in the log (so any node the client turns to next knows it).
class deferred_frame {
public:
  deferred_frame(std::shared_ptr<outbound> out, frame f, routing where)
    : out_(std::move(out)), f_(std::move(f)), where_(std::move(where)) {}
  ~deferred_frame() { out_->send(std::move(f_), where_); } // a closed session refuses it: fine
  deferred_frame(const deferred_frame&) = delete;
  deferred_frame& operator=(const deferred_frame&) = delete;

private:
  std::shared_ptr<outbound> out_;
  frame f_;
  routing where_;
};

// The answer to a request that changed this session's state. Clustered
// (and an HTTP session, which another node may serve): the session's record
// is logged first, and the answer goes out once this node reads it back.
void answer_after_record(self_ptr self, const jsonrpc::request_id& id, json result) {
  auto& st = self->state;
  auto* cluster = st.rt->cluster.get();
  if (!cluster || !st.named || !st.env)
    return answer(self, id, std::move(result));
  protocol::log_record r;
  r.session = protocol::log_record::session_note{
    st.id, protocol::session_record{st.env->protocol_version,
                                    st.env->client_capabilities,
                                    st.log_level->load(),
                                    {st.subscriptions.begin(), st.subscriptions.end()},
                                    st.env->owner}};
  auto key = jsonrpc::to_key(id);
  end_span(self, key, result);
  auto text = std::make_shared<const std::string>(jsonrpc::serialize_result(id, result));
  cluster->publish(std::move(r),
                   std::make_shared<deferred_frame>(st.out, std::move(text), routing{key, true}));
}

void fail(self_ptr self, const std::optional<jsonrpc::request_id>& id, jsonrpc::error err) {
  routing where;
  if (id) {
    where = routing{jsonrpc::to_key(*id), true};
    err = std::get<jsonrpc::error>(finish_stateless(self, *where.request_key, std::move(err)));
    end_span(self, *where.request_key, err);
  }
  send_frame(self, std::make_shared<const std::string>(jsonrpc::serialize_error(id, err)), where);
}

// Keys are the compact JSON text of the id (jsonrpc::to_key), made here.
jsonrpc::request_id id_of_key(const std::string& key) { return *jsonrpc::from_key(key); }

// A call's outcome, from whoever ran it: answered unless it was cancelled.
void settle_call(self_ptr self, const std::string& key, protocol::outcome out) {
  auto it = self->state.calls.find(key);
  if (it == self->state.calls.end())
    return; // cancelled: no response is sent
  self->state.calls.erase(it);
  answer_keyed(self, id_of_key(key), key, std::move(out)); // the result is not copied (6-7 allocations)
  close_if_drained(self);
}

session_actor handle_of(self_ptr self) { return caf::actor_cast<session_actor>(self); }

// The server actor may have been restarted since we last looked. Its end
// reaches us as a down_msg from server_watch (not a monitor: see there);
// one that ended before we looked, we tell ourselves.
server_actor current_server(self_ptr self) {
  auto srv = self->state.rt->server();
  if (srv && srv.address() != self->state.watched_server) {
    self->state.watched_server = srv.address();
    if (self->state.rt->server_ends->ended(srv.id()))
      caf::anon_send(caf::actor_cast<caf::actor>(self), caf::down_msg{srv.address(), caf::exit_reason::unknown});
  }
  return srv;
}

// Tells the notifier that this session exists, and once initialized that it
// operates (it hears broadcasts from then on). A notifier that dies before
// answering drops the request with its mailbox: its successor is asked,
// a little later, a bounded number of times; then the session ends (no
// notifier came back: the supervisor gave up, the server is going away).
constexpr int join_attempts = 100;
constexpr auto join_retry_delay = std::chrono::milliseconds(20);

void join_notifier(self_ptr self, int attempt) {
  auto& st = self->state;
  bool operating = st.phase == protocol::phase::operating;
  self->request(st.rt->notifier(), ask_timeout, join_atom::value, session_link{handle_of(self), st.out, st.id},
                operating)
    .then([](bool) {},
          [self, attempt](const caf::error&) {
            if (attempt + 1 >= join_attempts)
              self->send(handle_of(self), close_atom::value);
            else
              self->delayed_send(handle_of(self), join_retry_delay, join_atom::value, attempt + 1);
          });
}

void activate(self_ptr self) {
  self->state.phase = protocol::phase::operating;
  join_notifier(self, 0);
}

void initialize(self_ptr self, const jsonrpc::request& req) {
  auto params = req.params.value_or(json::object());
  if (auto err = protocol::check_initialize_params(params))
    return fail(self, req.id, *err);
  auto& st = self->state;
  auto requested = params["protocolVersion"].get<std::string>();
  // Ready before the result is: a pipelining client's next requests and its
  // `initialized` may arrive while the server actor is still answering.
  auto env = std::make_shared<session_env>();
  env->session = handle_of(self);
  env->session_id = st.id;
  env->protocol_version = protocol::negotiate_version(requested);
  env->client_capabilities = params.value("capabilities", json::object());
  env->log_level = st.log_level;
  if (st.caller)
    env->owner = st.caller->subject;
  st.env = std::move(env);
  st.phase = protocol::phase::initializing; // a second initialize is refused
  owe(self);
  self->request(current_server(self), ask_timeout, init_atom::value, requested)
    .then(settles<json>(self,
                        [self, id = req.id](json& result) {
                          answer_after_record(self, id, std::move(result));
                          self->state.init_answered = true;
                          self->state.opened = std::chrono::steady_clock::now();
                          if (self->state.initialized_early)
                            activate(self);
                        }),
          settles<caf::error>(self, [self, id = req.id](caf::error& e) {
            self->state.phase = protocol::phase::awaiting_initialize;
            self->state.env.reset();
            fail(self, id,
                 error_of(jsonrpc::code::internal_error, "initialize failed: " + self->system().render(e)));
          }));
}

void set_level(self_ptr self, const jsonrpc::request& req) {
  const json* level = req.params && req.params->contains("level") ? &(*req.params)["level"] : nullptr;
  auto parsed = level && level->is_string() ? parse_log_level(level->get<std::string>()) : std::nullopt;
  if (!parsed)
    return fail(self, req.id,
                error_of(jsonrpc::code::invalid_params,
                         "logging/setLevel: level must be one of debug, info, "
                         "notice, warning, error, critical, alert, emergency"));
  self->state.log_level->store(static_cast<int>(*parsed));
  answer_after_record(self, req.id, json::object());
}

const std::string* uri_param(const jsonrpc::request& req) {
  if (!req.params || !req.params->contains("uri") || !(*req.params)["uri"].is_string())
    return nullptr;
  return (*req.params)["uri"].get_ptr<const std::string*>();
}

void subscribe(self_ptr self, const jsonrpc::request& req, bool on) {
  const auto& opts = *self->state.rt->options;
  if (!opts.subscriptions)
    return fail(
      self, req.id,
      error_of(jsonrpc::code::method_not_found, "This server does not offer resource subscriptions"));
  auto uri = uri_param(req);
  if (!uri)
    return fail(self, req.id, error_of(jsonrpc::code::invalid_params, req.method + " requires a string uri"));
  auto reply = [self, id = req.id, uri = *uri, on](protocol::outcome& out) {
    auto* result = std::get_if<json>(&out);
    if (!result)
      return answer(self, id, std::move(out));
    if (on)
      self->state.subscriptions.insert(uri);
    else
      self->state.subscriptions.erase(uri);
    answer_after_record(self, id, std::move(*result));
  };
  auto broken = [self, id = req.id](caf::error& e) {
    fail(self, id, error_of(jsonrpc::code::internal_error, self->system().render(e)));
  };
  if (!on) {
    owe(self);
    self->request(self->state.rt->notifier(), ask_timeout, unsub_atom::value, handle_of(self), *uri)
      .then(settles<protocol::outcome>(self, reply), settles<caf::error>(self, broken));
    return;
  }
  if (opts.subscribable && !opts.subscribable(*uri))
    return fail(self, req.id,
                error_of(jsonrpc::code::invalid_params,
                         "Resource " + *uri + " is not subscribable on this server", json{{"uri", *uri}}));
  owe(self);
  self->request(current_server(self), ask_timeout, sub_atom::value, handle_of(self), *uri, self->state.caller)
    .then(settles<protocol::outcome>(self, reply), settles<caf::error>(self, broken));
}

// A quick handler, run on this actor: handed here by the server actor, or
// planned here (forward).
void run_quick(self_ptr self, call&& c, protocol::job&& job) {
  auto& st = self->state;
  if (!st.calls.count(c.key))
    return; // cancelled (or the session ended) before it ran
  auto key = c.key;
  running_here here(self); // what the handler sends runs next on this worker
  auto out = run_call(st.rt->request_state, st.rt->options->client_request_timeout, job, std::move(c), true,
                      st.rt->tasks);
  if (!out)
    return;
  // The progress and log messages the handler sent wait in our mailbox:
  // the result goes through it too, behind them, so the client sees
  // them first. A handler that sent nothing (the mailbox holds nothing
  // it could have sent) is answered now, one message fewer per call.
  if (self->mailbox().empty())
    settle_call(self, key, std::move(*out));
  else
    self->send(self, reply_atom::value, std::move(key), std::move(*out));
}

void forward(self_ptr self, jsonrpc::request& req, const std::string& key,
             std::shared_ptr<const session_env> env, json request_state) {
  auto& st = self->state;
  if (st.calls.size() >= st.rt->options->max_concurrent_calls_per_session)
    return fail(self, req.id,
                error_of(jsonrpc::code::internal_error,
                         "Too many concurrent requests on this session (limit "
                           + std::to_string(st.rt->options->max_concurrent_calls_per_session) + ")"));
  // The cancel flag and the taken flag share one allocation (aliasing
  // pointers into a pair): a request's hand-off allocates once for both.
  auto flags = std::make_shared<std::pair<std::atomic<bool>, std::atomic<bool>>>(false, false);
  std::shared_ptr<std::atomic<bool>> flag(flags, &flags->first);
  std::shared_ptr<std::atomic<bool>> taken(flags, &flags->second);
  st.calls.emplace(key, session_state::call_in_flight{flag, taken});
  // Workers (and the mutations their handlers make) continue this trace.
  trace_context trace;
  if (auto it = st.observed.find(key); it != st.observed.end() && it->second.span)
    trace = it->second.span->context();
  else if (req.params)
    trace = protocol::trace_context_from_meta(*req.params);
  call c{key,
         std::move(req.method),
         req.params ? std::move(*req.params) : json::object(), // the request is done with them
         std::move(env),
         flag,
         taken,
         std::move(trace),
         std::move(request_state),
         st.caller};
  c.param_headers = st.param_headers;
  if (std::string_view(c.method) == "tools/call")
    if (auto* tools = st.rt->tools.current(st.tools)) {
      // Served here, as the server actor would: no restart of it concerns
      // this call any more.
      c.taken->store(true);
      auto* tool = protocol::named_tool(tools->tools, c.params);
      return serve_tool_call(
        *st.rt, tool, std::move(c),
        [self](const call& c, protocol::outcome out) { settle_call(self, c.key, std::move(out)); },
        [self](call&& c, protocol::job&& job) { run_quick(self, std::move(c), std::move(job)); });
    }
  self->send(current_server(self), rpc_atom::value, std::move(c));
}

void on_request(self_ptr self, jsonrpc::request& req) {
  auto& st = self->state;
  auto key = jsonrpc::to_key(req.id);
  if (st.calls.count(key))
    return fail(self, req.id,
                error_of(jsonrpc::code::invalid_request, "Request id " + key + " is already in use"));
  observe_request(self, req, key);
  // Compared as views: a std::string against a literal is a strlen and a
  // memcmp each, and every request that is forwarded passes all of them.
  std::string_view method = req.method;
  if (st.out->stateless() || method == "server/discover"
      || (req.params && protocol::is_stateless_request(*req.params)))
    return serve_stateless(self, req, key);
  if (auto err = protocol::admit_request(st.phase, req.method))
    return fail(self, req.id, *err);
  if (method == "ping")
    return answer(self, req.id, json::object());
  if (method == "initialize")
    return initialize(self, req);
  if (method == "logging/setLevel")
    return set_level(self, req);
  if (method == "resources/subscribe")
    return subscribe(self, req, true);
  if (method == "resources/unsubscribe")
    return subscribe(self, req, false);
  forward(self, req, key, st.env);
}

void on_notification(self_ptr self, const jsonrpc::notification& n) {
  auto& st = self->state;
  if (n.method == "notifications/initialized") {
    if (st.phase == protocol::phase::initializing) {
      if (st.init_answered)
        activate(self);
      else
        st.initialized_early = true;
    }
  } else if (n.method == "notifications/cancelled") {
    if (!n.params || !n.params->contains("requestId"))
      return;
    const auto& rid = (*n.params)["requestId"];
    if (!rid.is_number_integer() && !rid.is_string())
      return;                    // invalid cancellations are ignored, as the spec asks
    auto key = rid.dump();       // the same text jsonrpc::to_key gives
    if (st.listens.erase(key)) { // a listen stream ends (stdio's way to close it)
      self->send(st.rt->notifier(), unlisten_atom::value, handle_of(self), key);
      st.stateless.erase(key);
      end_observed(self, key, nullptr); // the stream ended as the client asked: not an error
      if (!st.closed)
        st.out->end_request(key);
      return;
    }
    if (auto it = st.calls.find(key); it != st.calls.end()) {
      it->second.cancelled->store(true);
      st.calls.erase(it); // its result, if it still comes, is dropped
      st.stateless.erase(key);
      if (!st.closed) // no response will come: let the transport end the request
        st.out->end_request(key);
      end_observed(self, key, nullptr, "cancelled");
      close_if_drained(self);
    }
  }
  // Other client notifications (roots/list_changed, progress) need nothing.
}

// A message to the session's GET stream that belongs to no request.
// Clustered, it goes through the log: the node that serves the stream
// sends it, in order with the changes, and any node replays it.
void send_unrelated(self_ptr self, json message) {
  auto& st = self->state;
  if (st.rt->cluster && st.named) {
    protocol::log_record r;
    r.message = protocol::log_record::session_message{st.id, std::move(message)};
    st.rt->cluster->publish(std::move(r), nullptr);
    return;
  }
  send_frame(self, std::make_shared<const std::string>(jsonrpc::wire_text(message)), routing{});
}

// True when a handler here waited for it.
bool answer_ask(self_ptr self, const std::string& ask_id, protocol::outcome& out) {
  auto it = self->state.asks.find(ask_id);
  if (it == self->state.asks.end())
    return false; // late (timed out) or unknown: nothing waits for it here
  it->second->set_value(std::move(out));
  self->state.asks.erase(it);
  return true;
}

void on_client_answer(self_ptr self, const jsonrpc::request_id& id, protocol::outcome out) {
  auto* text = std::get_if<std::string>(&id);
  if (!text || answer_ask(self, *text, out))
    return;
  // Clustered: the client's answer to another node's request landed here;
  // the log takes it to every node, and the one that asked hands it on.
  auto& st = self->state;
  if (st.rt->cluster && st.named) {
    protocol::log_record r;
    r.answer = protocol::log_record::client_answer{st.id, *text, std::move(out)};
    st.rt->cluster->publish(std::move(r), nullptr);
  }
}

void on_message(self_ptr self, jsonrpc::message& msg) {
  if (auto* req = std::get_if<jsonrpc::request>(&msg))
    on_request(self, *req);
  else if (auto* n = std::get_if<jsonrpc::notification>(&msg))
    on_notification(self, *n);
  else if (auto* r = std::get_if<jsonrpc::response>(&msg))
    on_client_answer(self, r->id, std::move(r->result));
  else if (auto* e = std::get_if<jsonrpc::error_response>(&msg); e && e->id)
    on_client_answer(self, *e->id, e->err);
}

void on_text(self_ptr self, std::string& text) {
  auto parsed = jsonrpc::parse(text, self->state.rt->options->message_limits);
  if (auto* bad = std::get_if<jsonrpc::parse_failure>(&parsed))
    return fail(self, bad->id, bad->err);
  on_message(self, std::get<jsonrpc::message>(parsed));
}

} // namespace session_ops

using namespace session_ops;

session_actor::behavior_type session_behavior(self_ptr self, std::shared_ptr<runtime> rt,
                                              std::shared_ptr<outbound> out, std::string id, bool named,
                                              std::optional<protocol::session_record> adopted) {
  auto& st = self->state;
  st.rt = rt;
  st.out = out;
  st.id = id;
  st.named = named;
  st.in_roster = st.rt->sessions->add(caf::actor_cast<caf::actor>(self)); // before it looks for the server actor
  if (!adopted) {
    join_notifier(self, 0);
  } else { // operating already: initialized on another node, as its record says
    auto env = std::make_shared<session_env>();
    env->session = handle_of(self);
    env->session_id = id;
    env->protocol_version = adopted->protocol_version;
    env->client_capabilities = adopted->client_capabilities;
    env->owner = adopted->owner;
    st.log_level->store(adopted->log_level);
    env->log_level = st.log_level;
    st.env = std::move(env);
    st.phase = protocol::phase::operating;
    st.init_answered = true;
    st.subscriptions.insert(adopted->subscriptions.begin(), adopted->subscriptions.end());
    // Through the server actor, which knows which subscriptions are to templates.
    self->send(current_server(self), adopt_atom::value, session_link{handle_of(self), out, id},
               std::move(*adopted));
  }
  current_server(self);
  // The server actor died with requests it had not handled: answer them
  // rather than leaving the client waiting; its successor serves the next
  // ones. Those it handed on are answered by their handlers as usual (a
  // "retry" would be a lie: a handler may have acted already).
  self->set_down_handler([self](caf::down_msg& dm) {
    if (dm.source != self->state.watched_server)
      return;
    auto& st = self->state;
    st.watched_server = caf::actor_addr{};
    std::vector<std::string> lost;
    for (auto it = st.calls.begin(); it != st.calls.end();) {
      if (it->second.taken->load()) {
        ++it;
        continue;
      }
      it->second.cancelled->store(true);
      lost.push_back(it->first);
      it = st.calls.erase(it);
    }
    for (auto& key : lost)
      fail(self, id_of_key(key),
           error_of(jsonrpc::code::internal_error,
                    "The server actor restarted before handling this request; retry"));
    close_if_drained(self);
  });
  return {
    [self](inbound_atom, std::string& text) { on_text(self, text); },
    [self](inbound_atom, jsonrpc::message& msg) { on_message(self, msg); },
    [self](inbound_atom, jsonrpc::message& msg, caller_ptr& who) {
      self->state.caller = std::move(who); // for the call this message makes
      on_message(self, msg);
      self->state.caller.reset();
    },
    [self](inbound_atom, jsonrpc::message& msg, caller_ptr& who, param_headers_ptr& headers) {
      self->state.caller = std::move(who);
      self->state.param_headers = std::move(headers);
      on_message(self, msg);
      self->state.caller.reset();
      self->state.param_headers.reset();
    },
    [self](close_atom) { close_session(self); },
    [self](finish_atom) { start_draining(self); },
    [self](reply_atom, std::string& key, protocol::outcome& out) { settle_call(self, key, std::move(out)); },
    [self](run_atom, call& c, protocol::job& job) { run_quick(self, std::move(c), std::move(job)); },
    [self](join_atom, int attempt) { join_notifier(self, attempt); },
    [self](tell_atom, json& message) {
      if (!self->state.closed)
        send_unrelated(self, std::move(message));
    },
    [self](emit_atom, std::string& key, frame& f) {
      if (self->state.calls.count(key)) // progress after completion is dropped
        send_frame(self, std::move(f), routing{key, false});
    },
    [self](ask_atom, std::string& key, client_ask& ask) {
      // A task's handler asks after its request was answered (with the
      // task): the question goes out unrelated to any request (2025-11-25
      // clients answer it from any stream).
      bool active = self->state.calls.count(key) > 0;
      bool for_task = ask.params.is_object() && ask.params.contains("_meta") && ask.params["_meta"].is_object()
                      && ask.params["_meta"].contains(protocol::related_task_key);
      if (!active && !for_task) {
        ask.answer->set_value(error_of(jsonrpc::code::internal_error, "request no longer active"));
        return;
      }
      auto msg = jsonrpc::request_message(ask.id, ask.method, std::move(ask.params));
      self->state.asks.emplace(ask.id, std::move(ask.answer));
      send_frame(self, std::make_shared<const std::string>(jsonrpc::wire_text(msg)),
                 active ? routing{key, false} : routing{});
    },
    // Clustered: this session's state changed on another node.
    [self](restate_atom, std::vector<std::string>& subscriptions, int level) {
      self->state.subscriptions = {subscriptions.begin(), subscriptions.end()};
      self->state.log_level->store(level);
    },
    [self](answered_atom, std::string& ask_id, protocol::outcome& out) { answer_ask(self, ask_id, out); },
    [self](release_atom, std::string& key) {
      if (self->state.calls.count(key) && !self->state.closed)
        self->state.out->release_stream(key);
    },
    [self](forget_atom, std::string& ask_id) {
      if (self->state.asks.erase(ask_id))
        send_unrelated(self, jsonrpc::notification_message("notifications/cancelled",
                                                           {{"requestId", ask_id}, {"reason", "timed out"}}));
    },
  };
}

} // namespace cafmcp::actors

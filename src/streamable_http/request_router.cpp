#include "streamable_http/request_router.hpp"

#include <algorithm>

#include "cafmcp/prometheus_text.hpp"
#include "cafmcp/protocol_version.hpp"

#include "streamable_http/error_response.hpp"
#include "streamable_http/request_facts.hpp"
#include "streamable_http/session_id.hpp"

namespace cafmcp::http {

request_router::request_router(server& s, http_options o, session_counters& c, connection_loop& io,
                               verification_pool* verifications)
  : srv_(s), options_(std::move(o)), counters_(c),
    outbox_(std::make_shared<session_outbox>(io.ioc, &http_session::run)),
    histories_(std::make_shared<history_budget>(options_.stream_history_budget_bytes
                                                / std::max<std::size_t>(options_.event_loops, 1))),
    io_(io), auth_(auth_surface::from(options_)), verifications_(verifications),
    verdicts_(options_.auth_cache_ttl, options_.auth_cache_entries) {
  io.handler = this;
}

request_router::~request_router() {
  outbox_->close(); // a session an actor thread still sends to finds it closed
  sessions_.clear();
}

void request_router::join(std::vector<connection_loop*> loops, std::size_t index) {
  loops_ = std::move(loops);
  index_ = index;
}

void request_router::refuse(const std::shared_ptr<http_conn>& reply, int status, std::string_view why) {
  answer_error(*reply, status, std::string(why), std::nullopt);
}

void request_router::ended(const http_session& s) {
  if (s.stateless()) {
    if (stateless_.erase(&s))
      --counters_.stateless_requests;
  } else if (sessions_.erase(s.id()))
    --counters_.sessions;
}

void request_router::drain() {
  shutting_down_ = true;
  // Copies: a session that has nothing in flight ends (and leaves the map)
  // on a later turn of the loop, but never during the walk.
  auto all = sessions_;
  for (auto& [id, s] : all)
    s->drain();
  auto stateless = stateless_;
  for (auto& [p, s] : stateless)
    s->drain();
}

void request_router::end_all(int status, const std::string& why) {
  auto all = sessions_; // end() removes each from the map
  for (auto& [id, s] : all)
    s->end(status, why);
  auto stateless = stateless_;
  for (auto& [p, s] : stateless)
    s->end(status, why);
}

std::shared_ptr<http_session> request_router::find(const std::shared_ptr<http_conn>& c,
                                                   std::optional<std::string_view> id, bool required,
                                                   const caller_ptr& who,
                                                   const std::optional<jsonrpc::request_id>& request_id) {
  if (!id) {
    if (required)
      // No id: the request was malformed as HTTP, not refused as a call (a
      // client reports it as an HTTP failure of that request).
      answer_error(*c, 400, "Bad Request: Mcp-Session-Id header is required", std::nullopt);
    return nullptr;
  }
  // Another subject's session is as unknown to this caller as one that
  // never existed: the id is never a credential.
  auto owned = [&who](const http_session& s) { return !who || !s.owner() || *s.owner() == who->subject; };
  auto it = sessions_.find(*id);
  if (it != sessions_.end() && !it->second->ended() && owned(*it->second))
    return it->second;
  if (it == sessions_.end()) {
    if (auto adopted = adopt(std::string(*id), who))
      return adopted;
    // A cluster node that cannot read the log cannot tell an unknown
    // session from another node's: not a 404 that would make the client
    // start over.
    if (!srv_.options().cluster.url.empty())
      if (auto h = srv_.health(); !h.ok) {
        answer_error(*c, 503, "This node cannot read the cluster's sessions now (" + h.reason + "); retry",
                     request_id);
        return nullptr;
      }
  }
  answer_error(*c, 404, "Session not found: it ended or never existed; initialize again", request_id);
  return nullptr;
}

// Clustered: a session another node started, known from the change log,
// is served here from now on (no session affinity needed). Its event ids
// there were another node's: see http_session::open_stream.
std::shared_ptr<http_session> request_router::adopt(const std::string& id, const caller_ptr& who) {
  if (srv_.options().cluster.url.empty())
    return nullptr;
  if (counters_.sessions.fetch_add(1) >= options_.max_sessions) {
    --counters_.sessions;
    return nullptr;
  }
  auto session = std::make_shared<http_session>(id, *this);
  // The log's session record names its owner: another subject's session
  // is not adopted for it.
  auto core = srv_.adopt(session, id, who.get());
  if (who)
    session->set_owner(who->subject);
  if (!core) {
    --counters_.sessions;
    return nullptr;
  }
  session->attach(std::move(core));
  sessions_.emplace(id, session);
  return session;
}

void request_router::handle(const std::shared_ptr<http_conn>& c, request req) {
  auto h = headers_of(req);
  if (loops_.size() > 1) // a session's requests and streams are served on its own loop
    if (h.session_id)
      if (auto owner = loop_of(*h.session_id, loops_.size()); owner && *owner != index_)
        return c->move_to(*loops_[*owner], std::move(req));
  if (req.method() == beast::http::verb::get && req.target() == health_path)
    return answer_health(c);
  auto facts = facts_of(req, h);
  auto path = facts.target.substr(0, facts.target.find('?'));
  if (auth_.is_metadata_path(path))
    return answer_resource_metadata(c, facts);
  bool metrics = !options_.metrics_path.empty() && path == options_.metrics_path;
  if (auto no = metrics ? policy_.check_caller(facts) : policy_.check(facts))
    return answer_error(*c, no->status, no->message, std::nullopt);
  if (verifications_)
    return authenticate(c, req, h);
  serve(c, req, h, nullptr);
}

// Every request is authenticated on its own (a session id is never a
// credential); a token seen before on this loop and not yet expired costs a
// lookup, a new one a trip to the verification threads and back.
void request_router::authenticate(const std::shared_ptr<http_conn>& c, request& req, const known_headers& h) {
  auto token = bearer_token_of(h.authorization);
  if (!token)
    return answer_error(*c, 401, "Unauthorized: a bearer token is required", std::nullopt, auth_.challenge(""));
  auto now = std::chrono::steady_clock::now();
  if (auto who = verdicts_.find(*token, now))
    return serve(c, req, h, who);
  std::string text(*token); // before the move: `token` views the request's fields
  auto held = std::make_shared<request>(std::move(req));
  bool queued = verifications_->submit(text, [this, c, held, text](auth::verdict v) mutable {
    // On a verification thread: back to this loop with the verdict.
    net::post(io_.ioc, [this, c, held, text = std::move(text), v = std::move(v)]() mutable {
      if (v.kind != auth::verdict::valid)
        return refuse_token(c, v);
      verdicts_.keep(std::move(text), v.who, std::chrono::steady_clock::now());
      serve(c, *held, headers_of(*held), v.who); // read again: views into the request that was moved
    });
  });
  if (!queued)
    answer_error(*c, 503, "Too many token verifications waiting; retry", std::nullopt);
}

void request_router::refuse_token(const std::shared_ptr<http_conn>& c, const auth::verdict& v) {
  if (v.kind == auth::verdict::unavailable)
    return answer_error(*c, 503, "Cannot verify the bearer token now (" + v.reason + "); retry", std::nullopt);
  answer_error(*c, 401, "Unauthorized: invalid bearer token (" + v.reason + ")", std::nullopt,
               auth_.challenge("invalid_token", v.reason));
}

void request_router::serve(const std::shared_ptr<http_conn>& c, request& req, const known_headers& h,
                           const caller_ptr& who) {
  if (!c->open())
    return; // the client left while its token was verified
  auto facts = facts_of(req, h);
  if (who && !auth_.required_scopes().empty() && !who->has_scopes(auth_.required_scopes()))
    return answer_error(*c, 403, "Forbidden: the token lacks a scope every request needs", std::nullopt,
                        auth_.challenge("insufficient_scope", {}, auth_.required_scopes()));
  if (!options_.metrics_path.empty() && facts.target.substr(0, facts.target.find('?')) == options_.metrics_path)
    return answer_metrics(c, facts);
  if (shutting_down_ && req.method() == beast::http::verb::get)
    return answer_error(*c, 503, "Server shutting down", std::nullopt);
  switch (req.method()) {
    case beast::http::verb::post: return post(c, req, h, who);
    case beast::http::verb::get:
      if (auto s = find(c, h.session_id, true, who)) {
        std::optional<std::string> last;
        if (h.last_event_id)
          last = std::string(*h.last_event_id);
        s->open_stream(c, last);
        // The stream lasts as long as the token that opened it.
        if (who && c->streaming())
          if (auto until = steady_expiry(*who, std::chrono::steady_clock::now()))
            c->end_sse_at(*until);
      }
      return;
    default: // DELETE
      if (auto s = find(c, h.session_id, true, who)) {
        auto answer_headers = s->headers();
        s->end();
        srv_.forget(s->id());
        c->respond(200, {}, answer_headers, nullptr);
      }
      return;
  }
}

// For load balancers' health checks: a node's own state, no MCP, so it
// needs neither a session nor the Host and Origin a browser would send (it
// tells nothing a caller could misuse). Always 200 while the node serves:
// a degraded node still serves its own sessions (see server_health).
void request_router::answer_health(const std::shared_ptr<http_conn>& c) {
  auto h = srv_.health();
  json body = {{"status", h.ok ? "ok" : "degraded"}};
  if (!h.ok)
    body["reason"] = h.reason;
  c->respond(200, "application/json", {}, std::make_shared<const std::string>(jsonrpc::wire_text(body)));
}

// For Prometheus: what the server counts, as text. Unlike /healthz it
// tells a caller about the server's use (methods, sessions, failures), so
// it passes the same Host, Origin and token checks as the MCP endpoint;
// it needs no session. Collected here, on the loop: a read of atomics and
// of each family's shard locks, never a wait for an actor.
void request_router::answer_metrics(const std::shared_ptr<http_conn>& c, const request_facts& facts) {
  if (facts.method != "GET")
    return answer_error(*c, 405, "Method not allowed: GET " + options_.metrics_path, std::nullopt,
                        "Allow: GET\r\n");
  auto text = prometheus_text(srv_.options().metrics->collect());
  c->respond(200, std::string(prometheus_content_type), {},
             std::make_shared<const std::string>(std::move(text)));
}

// RFC 9728: public (it tells a client where to get a token), cacheable, and
// readable from a browser app on another origin.
void request_router::answer_resource_metadata(const std::shared_ptr<http_conn>& c, const request_facts& facts) {
  if (facts.method != "GET")
    return answer_error(*c, 405, "Method not allowed: GET the metadata", std::nullopt, "Allow: GET\r\n");
  c->respond(200, "application/json", "Cache-Control: max-age=3600\r\nAccess-Control-Allow-Origin: *\r\n",
             std::make_shared<const std::string>(auth_.metadata_document()));
}

void request_router::post(const std::shared_ptr<http_conn>& c, request& req, const known_headers& h,
                          const caller_ptr& who) {
  auto& body = req.body();
  auto parsed = jsonrpc::parse(body, srv_.options().message_limits);
  if (auto* bad = std::get_if<jsonrpc::parse_failure>(&parsed))
    return answer_error(*c, 400, bad->err.message, bad->id, {}, bad->err.code);
  auto& msg = std::get<jsonrpc::message>(parsed);
  auto* req_msg = std::get_if<jsonrpc::request>(&msg);
  if (shutting_down_ && req_msg) // what answers a request in flight still passes
    return answer_error(*c, 503, "Server shutting down; this request was not started", req_msg->id);
  bool initialize = req_msg && req_msg->method == "initialize"; // the one method we know
  auto version = h.protocol_version;
  bool has_session = h.session_id.has_value();
  if (is_stateless_post(has_session, version))
    return post_stateless(c, req, h, msg, who);
  if (version && !is_supported_protocol_version(*version))
    return answer_error(*c, 400, "Unsupported MCP-Protocol-Version: " + std::string(*version),
                        req_msg ? std::optional<jsonrpc::request_id>(req_msg->id) : std::nullopt);
  std::shared_ptr<http_session> session;
  if (initialize && !has_session) {
    if (counters_.sessions.fetch_add(1) >= options_.max_sessions) { // every loop's
      --counters_.sessions;
      return answer_error(*c, 503, "Too many sessions", req_msg->id);
    }
    auto id = new_session_id(index_, loops_.size());
    session = std::make_shared<http_session>(id, *this);
    if (who)
      session->set_owner(who->subject);
    session->attach(srv_.connect(session, id));
    sessions_.emplace(id, session);
  } else {
    session = find(c, h.session_id, true, who,
                   req_msg ? std::optional<jsonrpc::request_id>(req_msg->id) : std::nullopt);
    if (!session)
      return;
  }
  if (req_msg) {
    auto key = jsonrpc::to_key(req_msg->id);
    if (session->in_flight(key))
      return answer_error(*c, 400, "Request id " + key + " is already in flight on this session", req_msg->id,
                          session->headers());
    return session->post_request(c, std::move(key), std::move(msg), initialize, who);
  }
  session->post_other(std::move(msg), who);
  c->respond(202, {}, session->headers(), nullptr);
}

// 2026-07-28: one request, no session. Its own short-lived session actor
// serves it (a subscriptions/listen stream lives as long as its connection).
void request_router::post_stateless(const std::shared_ptr<http_conn>& c, const request& req,
                                    const known_headers& h, jsonrpc::message& msg, const caller_ptr& who) {
  auto* req_msg = std::get_if<jsonrpc::request>(&msg);
  if (!req_msg) { // a notification or response belongs to no request here
    c->respond(202, {}, {}, nullptr);
    return;
  }
  if (auto no = check_mirrored_headers(mirrored_headers_of(h), *req_msg))
    return answer_error(*c, no->status, no->message, req_msg->id, {}, no->code);
  // Counted until the request's session ends (http_session::end).
  if (counters_.stateless_requests.fetch_add(1) >= options_.max_stateless_requests) {
    --counters_.stateless_requests;
    return answer_error(*c, 503,
                        "Too many stateless requests in flight (limit "
                          + std::to_string(options_.max_stateless_requests) + ")",
                        req_msg->id);
  }
  auto session = std::make_shared<http_session>(std::string(), *this, true);
  session->attach(srv_.connect(session));
  stateless_.emplace(session.get(), session);
  auto key = jsonrpc::to_key(req_msg->id);
  session->post_request(c, std::move(key), std::move(msg), false, who, param_headers_of(req));
}

} // namespace cafmcp::http

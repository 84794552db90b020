#include "streamable_http/request_router.hpp"

#include "cafmcp/protocol_version.hpp"

#include "streamable_http/error_response.hpp"
#include "streamable_http/session_id.hpp"

namespace cafmcp::http {
namespace {

std::optional<std::string_view> header(const request& req, std::string_view name) {
  auto it = req.find(beast::string_view(name.data(), name.size()));
  if (it == req.end())
    return std::nullopt;
  return std::string_view(it->value().data(), it->value().size());
}

} // namespace

request_router::request_router(server& s, http_options o, session_counters& c, connection_loop& io)
  : srv_(s), options_(std::move(o)), counters_(c),
    outbox_(std::make_shared<session_outbox>(io.ioc, &http_session::run)) {
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

std::shared_ptr<http_session> request_router::find(const std::shared_ptr<http_conn>& c, const request& req,
                                                   bool required,
                                                   const std::optional<jsonrpc::request_id>& request_id) {
  auto id = header(req, "Mcp-Session-Id");
  if (!id) {
    if (required)
      // No id: the request was malformed as HTTP, not refused as a call (a
      // client reports it as an HTTP failure of that request).
      answer_error(*c, 400, "Bad Request: Mcp-Session-Id header is required", std::nullopt);
    return nullptr;
  }
  auto it = sessions_.find(std::string(*id));
  if (it != sessions_.end() && !it->second->ended())
    return it->second;
  if (it == sessions_.end()) {
    if (auto adopted = adopt(std::string(*id)))
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
std::shared_ptr<http_session> request_router::adopt(const std::string& id) {
  if (srv_.options().cluster.url.empty())
    return nullptr;
  if (counters_.sessions.fetch_add(1) >= options_.max_sessions) {
    --counters_.sessions;
    return nullptr;
  }
  auto session = std::make_shared<http_session>(id, *this);
  auto core = srv_.adopt(session, id);
  if (!core) {
    --counters_.sessions;
    return nullptr;
  }
  session->attach(std::move(core));
  sessions_.emplace(id, session);
  return session;
}

void request_router::handle(const std::shared_ptr<http_conn>& c, request req) {
  if (loops_.size() > 1) // a session's requests and streams are served on its own loop
    if (auto id = header(req, "Mcp-Session-Id"))
      if (auto owner = loop_of(*id, loops_.size()); owner && *owner != index_)
        return c->move_to(*loops_[*owner], std::move(req));
  if (req.method() == beast::http::verb::get && req.target() == health_path)
    return answer_health(c);
  request_facts facts{std::string_view(req.method_string().data(), req.method_string().size()),
                      std::string_view(req.target().data(), req.target().size()),
                      header(req, "Host"),
                      header(req, "Origin"),
                      header(req, "Accept"),
                      header(req, "Content-Type"),
                      header(req, "Authorization"),
                      header(req, "MCP-Protocol-Version")};
  if (auto no = policy_.check(facts))
    return answer_error(*c, no->status, no->message, std::nullopt);
  if (shutting_down_ && req.method() == beast::http::verb::get)
    return answer_error(*c, 503, "Server shutting down", std::nullopt);
  switch (req.method()) {
    case beast::http::verb::post: return post(c, req);
    case beast::http::verb::get:
      if (auto s = find(c, req, true)) {
        std::optional<std::string> last;
        if (auto h = header(req, "Last-Event-ID"))
          last = std::string(*h);
        s->open_stream(c, last);
      }
      return;
    default: // DELETE
      if (auto s = find(c, req, true)) {
        auto h = s->headers();
        s->end();
        srv_.forget(s->id());
        c->respond(200, {}, h, nullptr);
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

void request_router::post(const std::shared_ptr<http_conn>& c, request& req) {
  auto& body = req.body();
  auto parsed = jsonrpc::parse(body, srv_.options().message_limits);
  if (auto* bad = std::get_if<jsonrpc::parse_failure>(&parsed))
    return answer_error(*c, 400, bad->err.message, bad->id, {}, bad->err.code);
  auto& msg = std::get<jsonrpc::message>(parsed);
  auto* req_msg = std::get_if<jsonrpc::request>(&msg);
  if (shutting_down_ && req_msg) // what answers a request in flight still passes
    return answer_error(*c, 503, "Server shutting down; this request was not started", req_msg->id);
  bool initialize = req_msg && req_msg->method == "initialize"; // the one method we know
  auto version = header(req, "MCP-Protocol-Version");
  bool has_session = header(req, "Mcp-Session-Id").has_value();
  if (is_stateless_post(has_session, version))
    return post_stateless(c, req, msg);
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
    session->attach(srv_.connect(session, id));
    sessions_.emplace(id, session);
  } else {
    session = find(c, req, true, req_msg ? std::optional<jsonrpc::request_id>(req_msg->id) : std::nullopt);
    if (!session)
      return;
  }
  if (req_msg && session->in_flight(jsonrpc::to_key(req_msg->id)))
    return answer_error(
      *c, 400, "Request id " + jsonrpc::to_key(req_msg->id) + " is already in flight on this session",
      req_msg->id, session->headers());
  if (req_msg) {
    auto key = jsonrpc::to_key(req_msg->id);
    return session->post_request(c, std::move(key), std::move(msg), initialize);
  }
  session->post_other(std::move(msg));
  c->respond(202, {}, session->headers(), nullptr);
}

// 2026-07-28: one request, no session. Its own short-lived session actor
// serves it (a subscriptions/listen stream lives as long as its connection).
void request_router::post_stateless(const std::shared_ptr<http_conn>& c, request& req,
                                    jsonrpc::message& msg) {
  auto* req_msg = std::get_if<jsonrpc::request>(&msg);
  if (!req_msg) { // a notification or response belongs to no request here
    c->respond(202, {}, {}, nullptr);
    return;
  }
  mirrored_headers h{header(req, "MCP-Protocol-Version"), header(req, "Mcp-Method"), header(req, "Mcp-Name")};
  if (auto no = check_mirrored_headers(h, *req_msg))
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
  session->post_request(c, std::move(key), std::move(msg), false);
}

} // namespace cafmcp::http

#include "streamable_http/transport_state.hpp"

#include <sys/random.h>

#include "cafmcp/protocol_version.hpp"
#include "streamable_http/http_session.hpp"

namespace cafmcp::http {
namespace {

std::optional<std::string_view> header(const request& req, std::string_view name) {
  auto it = req.find(beast::string_view(name.data(), name.size()));
  if (it == req.end())
    return std::nullopt;
  return std::string_view(it->value().data(), it->value().size());
}

// 128 bits from the kernel's CSPRNG, as 32 hex digits (visible ASCII). With
// more than one loop, the last digit names the session's loop (124 random
// bits are left: still unguessable).
std::string new_session_id(std::size_t loop, std::size_t loops) {
  unsigned char raw[16];
  std::size_t got = 0;
  while (got < sizeof raw) {
    auto n = ::getrandom(raw + got, sizeof raw - got, 0);
    if (n > 0)
      got += static_cast<std::size_t>(n);
  }
  if (loops > 1)
    raw[sizeof raw - 1] = static_cast<unsigned char>((raw[sizeof raw - 1] & 0xf0) | loop);
  static const char* hex = "0123456789abcdef";
  std::string id;
  for (auto b : raw) {
    id.push_back(hex[b >> 4]);
    id.push_back(hex[b & 15]);
  }
  return id;
}

} // namespace

std::optional<std::size_t> loop_of(std::string_view session_id, std::size_t loops) {
  if (loops < 2)
    return 0;
  if (session_id.empty())
    return std::nullopt;
  char last = session_id.back();
  std::size_t n = last >= '0' && last <= '9' ? static_cast<std::size_t>(last - '0')
                  : last >= 'a' && last <= 'f' ? static_cast<std::size_t>(last - 'a' + 10)
                                               : 16;
  if (n >= 16)
    return std::nullopt;
  // Ours name their loop (n < loops); another cluster node's, made for
  // another number of loops, still map to one loop, always the same.
  return n % loops;
}

void transport_state::reject(const std::shared_ptr<http_conn>& c, int status,
                             const std::string& message,
                             const std::optional<jsonrpc::request_id>& id,
                             const std::string& headers, std::optional<int> code) {
  if (!code)
    code = status == 400 ? jsonrpc::code::invalid_request : -32000;
  auto body = jsonrpc::serialize_error(id, {*code, message, std::nullopt});
  send_rejection(c, status, std::move(body), headers);
}

void transport_state::send_rejection(const std::shared_ptr<http_conn>& c, int status, std::string body,
                                     const std::string& headers) {
  std::string extra = headers;
  if (status == 401)
    extra += "WWW-Authenticate: Bearer\r\n";
  if (status == 405)
    extra += "Allow: GET, POST, DELETE\r\n";
  c->respond(status, "application/json", extra, std::make_shared<const std::string>(std::move(body)));
}

void transport_state::forget(const std::string& session_id) {
  if (sessions.erase(session_id))
    --counters.sessions;
}

std::shared_ptr<http_session> transport_state::find(const std::shared_ptr<http_conn>& c,
                                                    const request& req, bool required) {
  auto id = header(req, "Mcp-Session-Id");
  if (!id) {
    if (required)
      reject(c, 400, "Bad Request: Mcp-Session-Id header is required", std::nullopt);
    return nullptr;
  }
  auto it = sessions.find(std::string(*id));
  if (it != sessions.end() && !it->second->ended())
    return it->second;
  if (it == sessions.end()) {
    if (auto adopted = adopt(std::string(*id)))
      return adopted;
    // A cluster node that cannot read the log cannot tell an unknown
    // session from another node's: not a 404 that would make the client
    // start over.
    if (!srv.options().cluster.url.empty())
      if (auto h = srv.health(); !h.ok) {
        reject(c, 503, "This node cannot read the cluster's sessions now (" + h.reason + "); retry", std::nullopt);
        return nullptr;
      }
  }
  reject(c, 404, "Session not found: it ended or never existed; initialize again", std::nullopt);
  return nullptr;
}

// Clustered: a session another node started, known from the change log,
// is served here from now on (no session affinity needed). Its event ids
// there were another node's: see http_session::open_stream.
std::shared_ptr<http_session> transport_state::adopt(const std::string& id) {
  if (srv.options().cluster.url.empty())
    return nullptr;
  if (counters.sessions.fetch_add(1) >= options.max_sessions) {
    --counters.sessions;
    return nullptr;
  }
  auto session = std::make_shared<http_session>(id, *this);
  auto core = srv.adopt(session, id);
  if (!core) {
    --counters.sessions;
    return nullptr;
  }
  session->attach(std::move(core));
  sessions.emplace(id, session);
  return session;
}

void transport_state::handle(const std::shared_ptr<http_conn>& c, request req) {
  if (loops.size() > 1) // a session's requests and streams are served on its own loop
    if (auto id = header(req, "Mcp-Session-Id"))
      if (auto owner = loop_of(*id, loops.size()); owner && *owner != index)
        return c->move_to(*loops[*owner], std::move(req));
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
  if (auto no = policy.check(facts))
    return reject(c, no->status, no->message, std::nullopt);
  switch (req.method()) {
    case beast::http::verb::post:
      return post(c, req);
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
        srv.forget(s->id());
        c->respond(200, {}, h, nullptr);
      }
      return;
  }
}

// For load balancers' health checks: a node's own state, no MCP, so it
// needs neither a session nor the Host and Origin a browser would send (it
// tells nothing a caller could misuse). Always 200 while the node serves:
// a degraded node still serves its own sessions (see server_health).
void transport_state::answer_health(const std::shared_ptr<http_conn>& c) {
  auto h = srv.health();
  json body = {{"status", h.ok ? "ok" : "degraded"}};
  if (!h.ok)
    body["reason"] = h.reason;
  c->respond(200, "application/json", {}, std::make_shared<const std::string>(jsonrpc::wire_text(body)));
}

void transport_state::post(const std::shared_ptr<http_conn>& c, request& req) {
  auto& body = req.body();
  auto parsed = jsonrpc::parse(body, srv.options().message_limits);
  if (auto* bad = std::get_if<jsonrpc::parse_failure>(&parsed))
    return reject(c, 400, bad->err.message, bad->id, {}, bad->err.code);
  auto& msg = std::get<jsonrpc::message>(parsed);
  auto* req_msg = std::get_if<jsonrpc::request>(&msg);
  bool initialize = req_msg && req_msg->method == "initialize"; // the one method we know
  auto version = header(req, "MCP-Protocol-Version");
  bool has_session = header(req, "Mcp-Session-Id").has_value();
  if (is_stateless_post(has_session, version))
    return post_stateless(c, req, msg);
  if (version && !is_supported_protocol_version(*version))
    return reject(c, 400, "Unsupported MCP-Protocol-Version: " + std::string(*version),
                  req_msg ? std::optional<jsonrpc::request_id>(req_msg->id) : std::nullopt);
  std::shared_ptr<http_session> session;
  if (initialize && !has_session) {
    if (counters.sessions.fetch_add(1) >= options.max_sessions) { // every loop's
      --counters.sessions;
      return reject(c, 503, "Too many sessions", req_msg->id);
    }
    auto id = new_session_id(index, loops.size());
    session = std::make_shared<http_session>(id, *this);
    session->attach(srv.connect(session, id));
    sessions.emplace(id, session);
  } else {
    session = find(c, req, true);
    if (!session)
      return;
  }
  if (req_msg && session->in_flight(jsonrpc::to_key(req_msg->id)))
    return reject(c, 400, "Request id " + jsonrpc::to_key(req_msg->id)
                            + " is already in flight on this session",
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
void transport_state::post_stateless(const std::shared_ptr<http_conn>& c, request& req,
                                     jsonrpc::message& msg) {
  auto* req_msg = std::get_if<jsonrpc::request>(&msg);
  if (!req_msg) { // a notification or response belongs to no request here
    c->respond(202, {}, {}, nullptr);
    return;
  }
  mirrored_headers h{header(req, "MCP-Protocol-Version"), header(req, "Mcp-Method"),
                     header(req, "Mcp-Name")};
  if (auto no = check_mirrored_headers(h, *req_msg))
    return reject(c, no->status, no->message, req_msg->id, {}, no->code);
  // Counted until the request's session ends (http_session::end).
  if (counters.stateless_requests.fetch_add(1) >= options.max_stateless_requests) {
    --counters.stateless_requests;
    return reject(c, 503, "Too many stateless requests in flight (limit "
                            + std::to_string(options.max_stateless_requests) + ")",
                  req_msg->id);
  }
  auto session = std::make_shared<http_session>(std::string(), *this, true);
  session->attach(srv.connect(session));
  auto key = jsonrpc::to_key(req_msg->id);
  session->post_request(c, std::move(key), std::move(msg), false);
}

} // namespace cafmcp::http

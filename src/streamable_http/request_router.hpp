#pragma once
// One event loop's request router: it takes each request a connection
// read, checks it against the request policy, and hands it to the session
// it names (starting one for initialize), answering through the
// connection it came on. It owns the sessions that live on its loop, by id,
// and is touched only on that loop's thread. A transport runs one or more
// loops; a session lives on one loop (its id names it), and a connection
// carrying a request for a session on another loop moves there (see
// http_conn::move_to). The counters and limits all loops share are
// atomics, so stats() can read them from anywhere.
#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "cafmcp/http_options.hpp"
#include "cafmcp/json_rpc.hpp"

#include "foundation/string_hash.hpp"
#include "streamable_http/auth_challenge.hpp"
#include "streamable_http/connection_loop.hpp"
#include "streamable_http/http_session.hpp"
#include "streamable_http/request_facts.hpp"
#include "streamable_http/request_policy.hpp"
#include "streamable_http/token_gate.hpp"

namespace cafmcp::http {

/// What the routers of every loop count and limit together.
struct session_counters {
  std::atomic<std::size_t> sessions{0};
  std::atomic<std::size_t> stateless_requests{0};
};

/// GET here answers the node's health (server_health) for load balancers.
inline constexpr std::string_view health_path = "/healthz";

class request_router final : public request_handler, public session_host {
public:
  /// Sessions by id, found by the header's view of it.
  using session_map = std::unordered_map<std::string, std::shared_ptr<http_session>, string_hash, std::equal_to<>>;
  /// `io`: the loop this router serves; its connections hand requests here.
  /// `verifications`: the transport's, when o.token_verifier is set.
  request_router(server& s, http_options o, session_counters& c, connection_loop& io,
                 verification_pool* verifications);
  ~request_router();

  // -- request_handler ---------------------------------------------------
  void handle(const std::shared_ptr<http_conn>& reply, request req) override;
  void refuse(const std::shared_ptr<http_conn>& reply, int status, std::string_view why) override;

  // -- session_host ------------------------------------------------------
  server& core() override { return srv_; }
  const http_options& options() const override { return options_; }
  const std::shared_ptr<session_outbox>& outbox() const override { return outbox_; }
  const std::shared_ptr<history_budget>& histories() const override { return histories_; }
  const auth_surface& auth() const override { return auth_; }
  void ended(const http_session& s) override;

  /// Every loop of the transport, this one at `index` (set before any runs).
  void join(std::vector<connection_loop*> loops, std::size_t index);
  /// Answers only what the transport's port makes known (set on start).
  void set_policy(request_policy p) { policy_ = std::move(p); }
  const session_map& sessions() const { return sessions_; }

  // -- shutdown (streamable_http::stop), on this loop --------------------
  /// New requests get 503 from now on (notifications, responses to the
  /// server's own requests and DELETE still pass: a handler may be waiting
  /// for one); every session drains (http_session::drain).
  void drain();
  /// Ends every session left, answering its requests in flight with
  /// `status` and a JSON-RPC error saying `why`.
  void end_all(int status, const std::string& why);
  /// No session, stateful or stateless, is left.
  bool drained() const { return sessions_.empty() && stateless_.empty(); }

private:
  using caller_ptr = std::shared_ptr<const auth::identity>;
  void answer_health(const std::shared_ptr<http_conn>& c);
  void answer_metrics(const std::shared_ptr<http_conn>& c, const request_facts& facts);
  void answer_resource_metadata(const std::shared_ptr<http_conn>& c, const request_facts& facts);
  /// With a verifier: `req` goes on to serve() once its token is judged
  /// (at once when a fresh verdict is cached, else on this loop after a
  /// verification thread decided); a refusal is answered here.
  void authenticate(const std::shared_ptr<http_conn>& c, request& req, const known_headers& h);
  void refuse_token(const std::shared_ptr<http_conn>& c, const auth::verdict& v);
  /// A request that passed the policy (and the token check); `h` is what
  /// handle() read from it once (views into `req`).
  void serve(const std::shared_ptr<http_conn>& c, request& req, const known_headers& h, const caller_ptr& who);
  void post(const std::shared_ptr<http_conn>& c, request& req, const known_headers& h, const caller_ptr& who);
  void post_stateless(const std::shared_ptr<http_conn>& c, const request& req, const known_headers& h,
                      jsonrpc::message& msg, const caller_ptr& who);
  /// The session `session_id` (the request's Mcp-Session-Id) names, or
  /// nullptr once `c` was answered (400, 404, 503); a POST's 404 or 503
  /// carries its request's `id`. A session another subject created is not
  /// found either (404).
  std::shared_ptr<http_session> find(const std::shared_ptr<http_conn>& c,
                                     std::optional<std::string_view> session_id, bool required,
                                     const caller_ptr& who,
                                     const std::optional<jsonrpc::request_id>& id = std::nullopt);
  std::shared_ptr<http_session> adopt(const std::string& id, const caller_ptr& who);

  server& srv_;
  http_options options_;
  session_counters& counters_; // outlives every loop
  std::vector<connection_loop*> loops_;
  std::size_t index_ = 0;
  request_policy policy_;
  session_map sessions_;
  /// 2026-07-28 requests in flight (each a session of its own), until
  /// they end: a shutdown drains them too.
  std::unordered_map<const http_session*, std::shared_ptr<http_session>> stateless_;
  bool shutting_down_ = false;
  /// What actor threads send this loop's sessions.
  std::shared_ptr<session_outbox> outbox_;
  std::shared_ptr<history_budget> histories_;
  connection_loop& io_;
  auth_surface auth_;
  verification_pool* verifications_; // null without a verifier
  verdict_cache verdicts_;
};

} // namespace cafmcp::http

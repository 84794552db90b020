#pragma once
// What one event loop owns: options, the request policy, the sessions that
// live on it by id. Touched only on its own thread. A transport runs one or
// more loops; a session lives on one loop (its id names it), and a
// connection carrying a request for a session on another loop moves there
// (see http_conn::move_to). The counters and limits all loops share are
// atomics, so stats() can read them from anywhere.
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "cafmcp/json_rpc.hpp"
#include "cafmcp/streamable_http.hpp"
#include "streamable_http/http_conn.hpp"
#include "streamable_http/loop_handoff.hpp"
#include "streamable_http/request_policy.hpp"

namespace cafmcp::http {

class http_session;

/// What an actor thread hands one session: a frame, or a signal about one
/// request or the whole session.
struct outgoing {
  enum class kind { frame, end_request, release_stream, close };
  std::shared_ptr<http_session> to;
  frame message;  // kind::frame only
  routing where;  // kind::frame; end_request and release_stream name their request here
  kind what = kind::frame;
};
void deliver(outgoing& o);              // http_session.cpp
void start_write(std::shared_ptr<http_conn>& c); // http_conn.cpp

/// What every loop of one transport counts and limits together.
struct transport_counters {
  std::atomic<std::size_t> open_connections{0};
  std::atomic<std::size_t> open_streams{0};
  std::atomic<std::size_t> dropped_slow{0};
  std::atomic<std::size_t> sessions{0};
  std::atomic<std::size_t> stateless_requests{0};
};

/// The loop a session id names, when it names one of `loops` (ids name a
/// loop only when there is more than one).
std::optional<std::size_t> loop_of(std::string_view session_id, std::size_t loops);

/// GET here answers the node's health (server_health) for load balancers.
inline constexpr std::string_view health_path = "/healthz";

struct transport_state {
  // The batches only keep a reference to ioc (declared last, constructed
  // last): they post to it once the loop runs.
  transport_state(server& s, http_options o, transport_counters& c)
    : counters(c), srv(s), options(std::move(o)),
      outbox(std::make_shared<loop_handoff<outgoing>>(ioc, deliver)), writes_due(ioc, start_write) {}
  ~transport_state() { // all of these hold connections bound to ioc
    outbox->close();
    writes_due.close();
    sessions.clear();
  }

  // Outlives every loop: connections count themselves out here while the
  // event loop's leftover handlers are destroyed.
  transport_counters& counters;
  std::string write_buffer; // small writes, flattened
  /// Every loop of the transport, this one at `index` (set before any runs).
  std::vector<transport_state*> loops;
  std::size_t index = 0;

  server& srv;
  http_options options;
  request_policy policy;
  std::unordered_map<std::string, std::shared_ptr<http_session>> sessions;
  /// What actor threads send, one loop post per batch (a broadcast).
  /// Shared with the sessions: an actor thread may still send to one while
  /// the transport is destroyed, and finds the outbox closed, not freed.
  std::shared_ptr<loop_handoff<outgoing>> outbox;
  /// Connections with frames queued and no write yet: their writes start
  /// together on the loop's next step, each taking all its queued frames.
  loop_handoff<std::shared_ptr<http_conn>, loop_only_lock> writes_due;
  net::io_context ioc{1}; // destroyed first: its pending handlers hold connections

  /// Routes one parsed HTTP request.
  void handle(const std::shared_ptr<http_conn>& c, request req);
  /// An HTTP error with a JSON-RPC error body (id when known).
  /// The JSON-RPC code defaults from the status (400: -32600, else -32000).
  void reject(const std::shared_ptr<http_conn>& c, int status, const std::string& message,
              const std::optional<jsonrpc::request_id>& id, const std::string& headers = {},
              std::optional<int> code = std::nullopt);
  void forget(const std::string& session_id);

private:
  void send_rejection(const std::shared_ptr<http_conn>& c, int status, std::string body,
                      const std::string& headers);
  void answer_health(const std::shared_ptr<http_conn>& c);
  void post(const std::shared_ptr<http_conn>& c, request& req);
  void post_stateless(const std::shared_ptr<http_conn>& c, request& req, jsonrpc::message& msg);
  std::shared_ptr<http_session> find(const std::shared_ptr<http_conn>& c, const request& req,
                                     bool required);
  std::shared_ptr<http_session> adopt(const std::string& id);
};

} // namespace cafmcp::http

#pragma once
// What the event loop owns: options, the request policy, the sessions by
// id, and counters. Touched only on the event-loop thread (counters are
// atomics so stats() can read them from anywhere).
#include <atomic>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "cafmcp/json_rpc.hpp"
#include "cafmcp/streamable_http.hpp"
#include "streamable_http/http_conn.hpp"
#include "streamable_http/loop_handoff.hpp"
#include "streamable_http/request_policy.hpp"

namespace cafmcp::http {

class http_session;

/// A frame (or the end) for one session, handed over from an actor thread.
struct outgoing {
  std::shared_ptr<http_session> to;
  frame message;
  routing where;
  bool close = false;
};
void deliver(outgoing& o);              // http_session.cpp
void start_write(std::shared_ptr<http_conn>& c); // http_conn.cpp

struct transport_state {
  // The batches only keep a reference to ioc (declared last, constructed
  // last): they post to it once the loop runs.
  transport_state(server& s, http_options o)
    : srv(s), options(std::move(o)), outbox(std::make_shared<loop_handoff<outgoing>>(ioc, deliver)),
      writes_due(ioc, start_write) {}
  ~transport_state() { // all of these hold connections bound to ioc
    outbox->close();
    writes_due.close();
    sessions.clear();
  }

  // Declared first, destroyed last: connections count themselves out here
  // while the event loop's leftover handlers are destroyed.
  std::atomic<std::size_t> open_connections{0};
  std::atomic<std::size_t> open_streams{0};
  std::atomic<std::size_t> dropped_slow{0};
  std::atomic<std::size_t> session_count{0};
  std::size_t stateless_requests = 0; // event loop only
  std::string write_buffer;           // event loop only: small writes, flattened

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
  void post(const std::shared_ptr<http_conn>& c, request& req);
  void post_stateless(const std::shared_ptr<http_conn>& c, request& req, jsonrpc::message& msg);
  std::shared_ptr<http_session> find(const std::shared_ptr<http_conn>& c, const request& req,
                                     bool required);
};

} // namespace cafmcp::http

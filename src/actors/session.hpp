#pragma once
// One session actor per client connection: the MCP lifecycle state machine,
// the negotiated version and log level, the requests in flight (for
// cancellation and progress), the requests this server made to the client,
// and the way out to the transport.
#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "actors/messages.hpp"
#include "actors/published_tools.hpp"
#include "actors/session_roster.hpp"
#include "protocol/lifecycle.hpp"

namespace cafmcp::actors {

struct runtime;

/// A request in flight, for the tracer (its SERVER span) and the metrics
/// (its method and start; counted in active_requests while it lives).
class observed_request {
public:
  observed_request(std::unique_ptr<cafmcp::span> s, gauge_series* active, std::string_view method)
    : span(std::move(s)), method(method), start(std::chrono::steady_clock::now()), active_(active) {
    if (active_)
      active_->add(1);
  }
  observed_request(observed_request&& o) noexcept
    : span(std::move(o.span)), method(o.method), start(o.start), active_(std::exchange(o.active_, nullptr)) {}
  observed_request& operator=(observed_request&&) = delete;
  ~observed_request() {
    if (active_)
      active_->add(-1);
  }

  std::unique_ptr<cafmcp::span> span; // null: tracing off or not sampled
  std::string_view method;            // metric_method_name's (static text)
  std::chrono::steady_clock::time_point start;

private:
  gauge_series* active_;
};

struct session_state {
  session_roster::membership in_roster; // leaves the server's roster with this state
  std::shared_ptr<runtime> rt;
  std::shared_ptr<outbound> out;
  std::string id;
  protocol::phase phase = protocol::phase::awaiting_initialize;
  std::shared_ptr<const session_env> env; // set by initialize
  // While one inbound message is handled: who sent it (HTTP with a token
  // verifier); the calls it makes carry it.
  caller_ptr caller;
  param_headers_ptr param_headers; // the same message's Mcp-Param-* headers (2026-07-28 HTTP)
  std::shared_ptr<std::atomic<int>> log_level =
    std::make_shared<std::atomic<int>>(static_cast<int>(log_level::info));
  // Requests in flight, by id key: `cancelled` tells their worker to stop;
  // `taken` says the server actor handed them on (call::taken).
  struct call_in_flight {
    std::shared_ptr<std::atomic<bool>> cancelled;
    std::shared_ptr<std::atomic<bool>> taken;
  };
  std::unordered_map<std::string, call_in_flight> calls;
  // Our requests to the client, by the id we sent.
  std::unordered_map<std::string, std::shared_ptr<std::promise<protocol::outcome>>> asks;
  caf::actor_addr watched_server;
  // Requests in flight as tracing and metrics see them, by id key (only
  // when either is on).
  std::unordered_map<std::string, observed_request> observed;
  bool closed = false;
  // Answers another actor still owes (initialize from the server actor,
  // resources/subscribe and unsubscribe): a draining session waits for
  // them as for `calls`, or a client that ends its input right after
  // sending them never hears back.
  std::size_t pending_answers = 0;
  // The client's input ended: close once `calls` is empty and no answer is
  // pending.
  bool draining = false;
  // `initialized` arrived before our initialize result was ready (a
  // pipelining client): activate as soon as it is.
  bool initialized_early = false;
  bool init_answered = false;
  // When this node answered its initialize (mcp.server.session.duration);
  // unset for a session adopted from another node.
  std::optional<std::chrono::steady_clock::time_point> opened;
  // Stateless (2026-07-28) requests in flight, by key, so that their
  // answers take that revision's shape; one a verified caller made is
  // never cached publicly (its scopes shaped it).
  struct stateless_request {
    std::string method;
    bool per_caller = false;
  };
  std::unordered_map<std::string, stateless_request> stateless;
  // Open subscriptions/listen streams, by the listen request's key.
  std::unordered_set<std::string> listens;
  // Clustered: the resources/subscribe URIs this session holds, for the
  // record every node keeps of it; and whether its transport named it (an
  // HTTP session, which another node may serve).
  std::set<std::string> subscriptions;
  bool named = false;
  // This session's copy of the server's tools (published_tools.hpp): a
  // tools/call of one is served here, not by the server actor.
  std::shared_ptr<const published_tools::edition> tools;
};

/// `named`: `id` is the transport's (HTTP's Mcp-Session-Id). `adopted`: a
/// session another node of the cluster started, resumed here from its record.
session_actor::behavior_type session_behavior(session_actor::stateful_pointer<session_state> self,
                                              std::shared_ptr<runtime> rt, std::shared_ptr<outbound> out,
                                              std::string id, bool named,
                                              std::optional<protocol::session_record> adopted);

} // namespace cafmcp::actors

#pragma once
// One session actor per client connection: the MCP lifecycle state machine,
// the negotiated version and log level, the requests in flight (for
// cancellation and progress), the requests this server made to the client,
// and the way out to the transport.
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "actors/messages.hpp"
#include "protocol/lifecycle.hpp"

namespace cafmcp::actors {

struct runtime;

struct session_state {
  std::shared_ptr<runtime> rt;
  std::shared_ptr<outbound> out;
  std::string id;
  protocol::phase phase = protocol::phase::awaiting_initialize;
  std::shared_ptr<const session_env> env; // set by initialize
  std::shared_ptr<std::atomic<int>> log_level =
    std::make_shared<std::atomic<int>>(static_cast<int>(log_level::info));
  // Requests in flight, by id key; the flag tells their worker to stop.
  std::unordered_map<std::string, std::shared_ptr<std::atomic<bool>>> calls;
  // Our requests to the client, by the id we sent.
  std::unordered_map<std::string, std::shared_ptr<std::promise<protocol::outcome>>> asks;
  caf::actor_addr watched_server;
  // Open SERVER spans of requests in flight, by id key (tracing on only).
  std::unordered_map<std::string, std::unique_ptr<span>> spans;
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
  // Stateless (2026-07-28) requests in flight: key -> method, so their
  // answers take that revision's shape.
  std::unordered_map<std::string, std::string> stateless;
  // Open subscriptions/listen streams, by the listen request's key.
  std::unordered_set<std::string> listens;
  // Clustered: the resources/subscribe URIs this session holds, for the
  // record every node keeps of it; and whether its transport named it (an
  // HTTP session, which another node may serve).
  std::set<std::string> subscriptions;
  bool named = false;
};

/// `named`: `id` is the transport's (HTTP's Mcp-Session-Id). `adopted`: a
/// session another node of the cluster started, resumed here from its record.
session_actor::behavior_type session_behavior(session_actor::stateful_pointer<session_state> self,
                                              std::shared_ptr<runtime> rt, std::shared_ptr<outbound> out,
                                              std::string id, bool named,
                                              std::optional<protocol::session_record> adopted);

} // namespace cafmcp::actors

#pragma once
// The change notifier: knows every session, who subscribed to what, and
// broadcasts each notification serialized once to the sessions that must
// get it. Its state lives outside the actor (held by the supervisor's
// runtime), so a restarted notifier loses no session and no subscription.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>

#include "actors/messages.hpp"
#include "protocol/subscription_index.hpp"

namespace cafmcp::actors {

struct runtime;

struct notifier_state {
  struct member {
    session_link link;
    bool active = false; // saw `initialized`: notifications may flow
  };
  std::unordered_map<std::uint64_t, member> sessions; // by actor id
  // Clustered: a session's actor id by its Mcp-Session-Id, for the changes
  // of its state that another node logs.
  std::unordered_map<std::string, std::uint64_t> by_name;
  // subscriptions/listen streams (2026-07-28), subscribers of the same
  // index under ids with the top bit set (session ids never have it).
  struct listener {
    listen_request req;
    std::uint64_t session; // the actor id of the session that opened it
  };
  std::unordered_map<std::uint64_t, listener> listeners;
  std::unordered_multimap<std::uint64_t, std::uint64_t> listeners_of_session;
  // The listen streams following each task (their filter's taskIds).
  std::unordered_multimap<std::string, std::uint64_t> task_listeners;
  std::uint64_t next_listener = 0;
  protocol::subscription_index index;
  // Clustered: the log entry being told now (its k unused).
  std::optional<log_mark> entry;
  std::size_t broadcasts = 0;
  std::size_t deliveries = 0;
  std::size_t active_sessions = 0; // members with `active` set
};

notifier_actor::behavior_type change_notifier(notifier_actor::pointer self, std::shared_ptr<runtime> rt);

} // namespace cafmcp::actors

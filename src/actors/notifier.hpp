#pragma once
// The change notifier: knows every session, who subscribed to what, and
// broadcasts each notification serialized once to the sessions that must
// get it. Its state lives outside the actor (held by the supervisor's
// runtime), so a restarted notifier loses no session and no subscription.
#include <cstdint>
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
  protocol::subscription_index index;
  std::size_t broadcasts = 0;
  std::size_t deliveries = 0;
};

notifier_actor::behavior_type change_notifier(notifier_actor::pointer self,
                                              std::shared_ptr<runtime> rt);

} // namespace cafmcp::actors

#pragma once
// A one_for_one supervisor, as in Erlang/OTP: it starts the server actor and
// the change notifier, traps their exits and restarts the one that died
// (at most `max_restarts` within `window`, server_options::supervision,
// then it gives up and stops).
// Their state lives in the runtime, so a restart loses no registry entry and
// no subscription. What a dead actor still had in its mailbox is lost with
// it: a restarted notifier's first act is a resync (every client re-reads
// every list and subscribed resource: told at least once, never lost); the
// server actor's requests in flight are answered with an error to retry,
// and a mutation lost with it settles its future with an exception.
// Sessions are not supervised: a session that dies is
// simply cleaned up (its client reconnects), like a temporary child.
#include <chrono>

#include <caf/fwd.hpp>

#include "cafmcp/server_options.hpp"

#include "actors/runtime.hpp"

namespace cafmcp::actors {

using supervisor_limits = server_options::supervision_limits;

caf::behavior supervisor(caf::event_based_actor* self, std::shared_ptr<runtime> rt, supervisor_limits limits);

} // namespace cafmcp::actors

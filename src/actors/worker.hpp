#pragma once
// A worker runs one handler on a thread of its own (an idle thread of the
// runtime's worker_pool, else a new one), so a slow or blocking tool delays
// neither the server actor, nor the notifier, nor the session's other
// requests. It answers the session directly.
#include "actors/messages.hpp"

namespace cafmcp::actors {

struct runtime;

void run_on_worker(runtime& rt, protocol::job job, call c);

} // namespace cafmcp::actors

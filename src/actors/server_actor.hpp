#pragma once
// The server actor: owns the registry, answers what it can answer at once,
// and hands everything that calls an author's handler to a worker.
#include "actors/messages.hpp"

namespace cafmcp::actors {

struct runtime;

server_actor::behavior_type server_behavior(server_actor::pointer self, std::shared_ptr<runtime> rt);

} // namespace cafmcp::actors

#pragma once
// The change log in process memory: every connection to "memory://NAME" in
// one process shares one log. For unit tests and demos of several nodes in
// one process; it is the same contract as Redis (positions, blocking reads,
// trimming), without the network.
#include <memory>
#include <string>

#include "cluster/log_backend.hpp"

namespace cafmcp::cluster {

std::unique_ptr<log_backend> open_memory_log(const std::string& name, std::size_t max_entries);

} // namespace cafmcp::cluster

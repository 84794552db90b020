#pragma once
// The change log as one Redis Stream (<prefix>:log), over hiredis's
// synchronous client: XADD (pipelined, trimmed with MAXLEN ~), XREAD BLOCK,
// XREVRANGE. Each connection belongs to one thread; see README.md for why
// blocking connections on threads of their own rather than the Asio loop.
#include <memory>
#include <string>

#include "cluster/cluster_url.hpp"
#include "cluster/log_backend.hpp"

namespace cafmcp::cluster {

/// Throws std::runtime_error when it cannot connect (or select the db).
std::unique_ptr<log_backend> open_redis_log(const redis_address& where, const log_settings& settings);

} // namespace cafmcp::cluster

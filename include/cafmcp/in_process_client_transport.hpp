#pragma once
// A client transport to a cafmcp::server in the same process: no sockets,
// but still JSON-RPC text both ways, so a cafmcp::client sees exactly what
// it would see remotely.
#include <memory>

#include "cafmcp/client_transport.hpp"
#include "cafmcp/server.hpp"

namespace cafmcp {

/// `srv` must outlive the transport.
std::unique_ptr<client_transport> make_in_process_client_transport(server& srv);

} // namespace cafmcp

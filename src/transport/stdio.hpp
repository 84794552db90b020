#pragma once
// MCP over stdio: newline-delimited JSON-RPC on stdin/stdout. Nothing but
// MCP goes to stdout; diagnostics go to stderr; EOF on stdin ends the
// session and the call returns 0.
#include "cafmcp/stdio.hpp"

namespace cafmcp::transport {

/// Serves one client on file descriptors `in` and `out` until EOF on `in`.
int serve_stdio(server& srv, int in = 0, int out = 1, const stdio_options& options = {});

} // namespace cafmcp::transport

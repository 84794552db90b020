#pragma once
// MCP's stdio transport: one client on stdin/stdout, newline-delimited
// JSON-RPC. Nothing but MCP goes to stdout; diagnostics go to stderr.
namespace cafmcp {

class server;

/// Serves one client over stdin/stdout until it closes stdin; the requests
/// it already sent are answered first (server_options::drain_timeout).
/// Returns 0.
int serve_stdio(server& srv);

} // namespace cafmcp

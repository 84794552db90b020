#pragma once
// TLS for the Streamable HTTP server, as a terminator inside the transport.
//
// Why not TLS inside http_conn: the plain path writes with sendmsg(2)
// straight on the TCP socket (gathered writes of shared frames, tried at
// once without an asynchronous operation; see http_conn.hpp), which is where
// its throughput comes from, and none of that can go through an SSL stream.
// Rather than a second, slower http_conn over a stream abstraction (or a
// branch in every write), a TLS connection is handshaken and decrypted here,
// on its loop, and bridged over a socketpair(2) to an ordinary http_conn:
// one copy per byte for TLS connections, no change at all to plain ones.
#include <boost/asio/ssl/context.hpp>

#include "streamable_http/connection_loop.hpp"
#include "streamable_http/http_request.hpp"

namespace cafmcp::http {

/// A server context from a PEM certificate chain and its PEM private key;
/// throws std::runtime_error saying which file is at fault.
net::ssl::context make_server_tls_context(const std::string& certificate_file,
                                          const std::string& private_key_file);

/// Serves an accepted connection over TLS: handshake (bounded), then an
/// http_conn on `loop` behind the bridge. Runs on `loop`'s thread.
void serve_tls(tcp::socket socket, net::ssl::context& ctx, connection_loop& loop);

} // namespace cafmcp::http

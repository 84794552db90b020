#pragma once
// A client transport for MCP Streamable HTTP (2025-11-25, basic/transports
// "Streamable HTTP"): one POST per message (JSON or SSE answers), the
// session id, MCP-Protocol-Version after negotiation, the standalone GET
// stream, resumption with Last-Event-ID, DELETE on close. Runs on an io
// thread of its own; send() only queues.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "cafmcp/client_auth.hpp"
#include "cafmcp/client_transport.hpp"
#include "cafmcp/json.hpp"

namespace cafmcp {

struct http_client_options {
  /// http://HOST:PORT/PATH or https://HOST:PORT/PATH. https verifies the
  /// server's certificate chain (against the system's CA store unless
  /// ca_file is set) and that it names HOST (a DNS name, or an IP address
  /// in its subjectAltName), and sends HOST as SNI when it is a name.
  std::string url;
  /// https: a PEM file of CA certificates to trust *instead of* the system
  /// store (a private CA, a test's own). Unreadable: make_... throws
  /// std::invalid_argument.
  std::optional<std::string> ca_file;
  /// Extra headers on every request.
  std::map<std::string, std::string> headers;
  /// Where the bearer token of every request comes from (client_auth.hpp,
  /// e.g. oauth_client_credentials). A 401, or a 403 insufficient_scope,
  /// makes the transport renew it once and send the request again; the
  /// renewal runs on a thread of its own, never on the io thread.
  std::shared_ptr<bearer_token_source> auth;
  std::chrono::milliseconds connect_timeout{5000};
  /// close(): how long the DELETE may take before the transport gives up.
  std::chrono::milliseconds delete_timeout{2000};
  /// close() sends DELETE for the session. Off: the client just vanishes (a
  /// checker's way to test that a vanished session harms no other).
  bool delete_on_close = true;
  /// Open the standalone GET stream on negotiated().
  bool open_get_stream = true;
  /// MCP 2026-07-28's Streamable HTTP: every POST carries `Mcp-Method` and,
  /// for tools/call, prompts/get and resources/read, `Mcp-Name` (params.name
  /// or params.uri) mirroring its body. A header rule of that revision's
  /// transport, so it lives here; off for 2025-11-25 servers.
  bool method_headers = false;
  /// Reconnecting a dropped SSE stream: attempts in a row before giving up,
  /// and the backoff when the server sent no `retry:` (doubling per failed
  /// attempt up to max_backoff; the server's `retry:` is the base when sent).
  int max_reconnect_attempts = 5;
  std::chrono::milliseconds initial_backoff{100};
  std::chrono::milliseconds max_backoff{5000};
  /// The largest response body, or SSE event, accepted from the server. A
  /// larger one fails its request with an error saying so; on the GET
  /// stream it ends the connection (on_closed names the limit). Never
  /// buffered past this.
  std::size_t max_message_bytes = std::size_t{64} << 20;
};

class http_client_transport : public client_transport {
public:
  /// The Mcp-Session-Id the server assigned ("" before, or if none).
  virtual std::string session_id() const = 0;
  /// Closes the POST stream still open for request `id` (2026-07-28 ends a
  /// `subscriptions/listen` this way); no error response follows for it.
  virtual void end_request_stream(const json& id) = 0;
};

/// Throws std::invalid_argument for a URL it cannot use (or a ca_file it
/// cannot read).
std::unique_ptr<http_client_transport> make_http_client_transport(http_client_options opts);

} // namespace cafmcp

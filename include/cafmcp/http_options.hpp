#pragma once
// How a Streamable HTTP transport serves: where it listens, what it
// accepts, and every limit it enforces (each one configurable).
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cafmcp/auth.hpp"

namespace cafmcp {

struct http_options {
  std::string host = "127.0.0.1"; // loopback unless you say otherwise
  std::uint16_t port = 3000;      // 0: any free port (see streamable_http::port)
  std::string path = "/mcp";
  /// Both set: serve HTTPS (TLS 1.2 or later) with this PEM certificate
  /// chain (the server's certificate first) and its PEM private key. One
  /// without the other, or a file that cannot be used: start() throws
  /// startup_error.
  std::optional<std::string> tls_certificate_file;
  std::optional<std::string> tls_private_key_file;
  /// Extra Host header values and Origins accepted besides this server's own
  /// loopback names (localhost, 127.0.0.1, [::1] with the bound port).
  std::vector<std::string> allowed_hosts;
  std::vector<std::string> allowed_origins;
  /// When set (or CAFMCP_HTTP_TOKEN in the environment), every request needs
  /// `Authorization: Bearer <token>` (the simplest verifier; ignored when
  /// token_verifier is set).
  std::optional<std::string> bearer_token;
  /// Every request (but /healthz and the metadata documents) must carry a
  /// bearer token this verifier accepts (cafmcp/auth_verifiers.hpp): 401
  /// with `WWW-Authenticate: Bearer` otherwise (`error="invalid_token"` for
  /// a bad one), 503 while it cannot decide. A session belongs to the
  /// subject that created it: another subject's token gets 404 on it.
  /// Handlers see the caller (request_context::caller()); tools, resources
  /// and prompts may require scopes (403 insufficient_scope).
  std::shared_ptr<auth::token_verifier> token_verifier;
  /// Served at /.well-known/oauth-protected-resource (and that followed by
  /// `path`), and named in every challenge's `resource_metadata`.
  std::optional<auth::protected_resource> protected_resource;
  /// Valid verdicts are kept per event loop this long (never past the
  /// token's expiry), at most this many.
  std::chrono::milliseconds auth_cache_ttl{std::chrono::seconds(30)};
  std::size_t auth_cache_entries = 10000;
  /// Threads verifying tokens seen for the first time (a verifier may
  /// block), and how many verifications may wait for one (503 beyond).
  std::size_t auth_threads = 2;
  std::size_t max_pending_verifications = 1024;
  std::size_t max_body_bytes = 4 * 1024 * 1024; // -> 413
  std::size_t max_header_bytes = 16 * 1024;     // -> 431
  /// Open connections across every event loop (TLS ones included); one
  /// more is answered 503 with Retry-After and closed.
  std::size_t max_connections = 10000;
  /// A connection waiting for a request must receive its whole header
  /// within this (an idle keep-alive connection is closed then), and then
  /// its body within request_body_timeout: a client sending slowly (or
  /// not at all) cannot hold a connection. A request cut short gets 408.
  std::chrono::milliseconds request_header_timeout{std::chrono::seconds(10)};
  std::chrono::milliseconds request_body_timeout{std::chrono::seconds(30)};
  /// Events kept per SSE stream for Last-Event-ID replay (whichever bound
  /// is reached first discards the oldest).
  std::size_t stream_history_events = 1024;
  std::size_t stream_history_bytes = 8 * 1024 * 1024;
  std::chrono::seconds stream_history_age{300};
  /// Bytes every stream's history may hold together (each event counts its
  /// frame plus about 80 bytes of bookkeeping; a broadcast counts once per
  /// stream), split evenly between the event loops. Over it, the oldest
  /// event of any stream is discarded first, and a client resuming from
  /// before it gets 410. Without it, max_sessions histories of
  /// stream_history_bytes each could add up to far more than the machine.
  std::size_t stream_history_budget_bytes = 256 * 1024 * 1024;
  /// Request streams that already carried their response stay resumable
  /// for stream_history_age, and at most this many per session.
  std::size_t finished_streams_per_session = 64;
  /// Bytes a client may leave unread on one connection before it is
  /// disconnected (it can resume with Last-Event-ID).
  std::size_t max_unread_bytes = 4 * 1024 * 1024;
  std::chrono::milliseconds keep_alive_interval{15000};
  std::chrono::milliseconds retry_hint{1000}; // SSE `retry:` before we close
  /// A session with no open connection and no request for this long ends
  /// (its client is gone: killed, or never said DELETE).
  std::chrono::milliseconds session_idle_timeout{std::chrono::minutes(10)};
  std::size_t max_sessions = 100000;
  /// 2026-07-28 requests (each outside any session) in flight at once, open
  /// subscriptions/listen streams included; over it: 503.
  std::size_t max_stateless_requests = 100000;
  /// GET here answers the server's metrics in Prometheus's text format
  /// (server_options::metrics must be set: start() throws startup_error
  /// otherwise). Empty: not served (404 like any other path). The request
  /// passes the same Host, Origin and bearer-token checks as the MCP
  /// endpoint, and needs no session.
  std::string metrics_path;
  /// stop() (and run() on SIGINT/SIGTERM): the transport stops accepting,
  /// answers new requests 503, ends 2026-07-28 listen streams with their
  /// completion result, and lets requests in flight be answered for up to
  /// this long. What is still unanswered then gets a JSON-RPC error (HTTP
  /// 503, or the last event of its SSE stream): never a silent close.
  std::chrono::milliseconds shutdown_grace{std::chrono::seconds(10)};
  /// After that, how long clients may take to read what was written to
  /// them before their connections are closed regardless.
  std::chrono::milliseconds shutdown_flush_timeout{std::chrono::seconds(2)};
  /// Event-loop threads (1..16). Connections are spread over them; each
  /// session lives on one, and its requests and streams are served there,
  /// so a broadcast's writes run on every loop at once.
  std::size_t event_loops = 1;
  /// An actor woken by a request runs on the event loop that read it, and
  /// so does what it wakes in turn (the server actor, the session again for
  /// a quick handler): a tools/call is read, dispatched, run and answered
  /// on one thread, with no actor-thread wake-up on the way (2 cores:
  /// +33% tools/call, a third less CPU per request; BENCHMARKS.md). The
  /// price: a `tool::quick` handler that blocks after all stalls that
  /// loop's connections, not one actor thread. false: every actor runs on
  /// the actor threads (`server_options::scheduler_threads`), as before.
  bool actors_on_event_loops = true;
  /// The small writes one step of an event loop starts (a broadcast's
  /// events, one per stream) go to the kernel together, in one io_uring
  /// submission instead of a send(2) each: ~10% less CPU per delivery at
  /// 500 streams (BENCHMARKS.md). Where io_uring cannot be used (a
  /// container's seccomp profile, or a kernel whose send to a full socket
  /// would wait for room: each loop tries one when it starts) each write is
  /// its own send(2), as with false.
  bool batched_writes = true;
};

} // namespace cafmcp

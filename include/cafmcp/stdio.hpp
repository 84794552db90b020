#pragma once
// MCP's stdio transport: one client on stdin/stdout, newline-delimited
// JSON-RPC. Nothing but MCP goes to stdout; diagnostics go to stderr.
#include <chrono>

namespace cafmcp {

class server;
struct server_options;

/// Tunes `o` for a server made to serve one client over stdio, one request
/// at a time: one scheduler thread (its actors never wait for another's
/// wake-up), which keeps looking for work for ~20 us before it sleeps, so
/// the client's next request usually starts without a wake-up at all.
/// stdio, one update_resource at a time: 1.4-1.9x the updates per second
/// (BENCHMARKS.md); the spin costs about 1% of a core for a client sending
/// 1,000 requests a second. Not for a server that also serves HTTP.
void tune_for_stdio(server_options& o);

struct stdio_options {
  /// What a request wakes (its session, the server actor, the notifier,
  /// a quick handler) runs on the thread that read it from stdin, between
  /// one read and the next, and writes its answer itself: no hand-off to
  /// an actor thread and back (stdio, one update at a time: BENCHMARKS.md).
  /// Slow handlers still run on the worker pool; their answers come back to
  /// this thread (which, while one is awaited, sleeps where it can be woken
  /// for it), and what they and timers otherwise wake runs on the actor
  /// threads. The price is tool::quick's: a quick
  /// handler that blocks holds up reading. false keeps every actor on the
  /// actor threads.
  bool actors_on_reader = true;
  /// After it has handled what one read brought, the reader keeps looking
  /// for the next line (poll(2) with a zero timeout, ~0.3 us a look) for
  /// up to this long before it blocks in read(): a client that answers at
  /// once finds the server awake, and skips a wake-up of a sleeping thread,
  /// the largest part of a request's latency on a virtual machine. Costs at
  /// most this much CPU per request read; 0 turns it off (and so does a
  /// reader that may run on one CPU only, by its affinity mask or the
  /// machine's size: there it would only delay other threads, the client
  /// that started the server and shares its mask among them). While
  /// the client shares the reader's CPU (the spin then holds it up: spins
  /// keep running out just before its line comes), the reader stops
  /// spinning, and tries again now and then.
  std::chrono::microseconds poll_before_sleep{50};
};

/// Serves one client over stdin/stdout until it closes stdin; the requests
/// it already sent are answered first (server_options::drain_timeout).
/// Returns 0.
int serve_stdio(server& srv, const stdio_options& options = {});

} // namespace cafmcp

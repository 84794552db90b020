#pragma once
// A hand on an HTTP client transport's standalone GET stream, for
// cafmcp-check's resumption checks and for tests: cut it as a network
// failure would, hold it down, bring it back, count what happened. A client
// never needs it, so it is not public API.
#include <chrono>

#include "cafmcp/http_client_transport.hpp"

namespace cafmcp {

class http_stream_control {
public:
  /// Waits until the standalone GET stream has been opened (answered 200)
  /// at least `opens` times (true), or the server refused it / the wait
  /// timed out (false). opens = get_stream_opens() + 1 waits for a reconnect.
  virtual bool wait_get_stream(std::chrono::milliseconds timeout, int opens = 1) = 0;
  /// Cuts the GET stream's socket as a network failure would; the transport
  /// resumes it with Last-Event-ID.
  virtual void drop_get_stream() = 0;
  /// Cuts the GET stream and keeps it down until resume_get_stream(), which
  /// reconnects at once with Last-Event-ID: what happens in between is what
  /// the server must replay. Deterministic, unlike racing a retry delay.
  virtual void pause_get_stream() = 0;
  virtual void resume_get_stream() = 0;
  /// SSE streams successfully resumed with Last-Event-ID so far.
  virtual int resumptions() const = 0;
  /// Times the standalone GET stream was answered 200 (first open included).
  virtual int get_stream_opens() const = 0;

protected:
  ~http_stream_control() = default;
};

/// The control of a transport that make_http_client_transport made
/// (std::bad_cast for any other implementation).
http_stream_control& stream_control(http_client_transport& t);

} // namespace cafmcp

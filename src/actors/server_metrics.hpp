#pragma once
// The instruments a server records into when server_options::metrics is
// set: made once, so that the actors hold plain references and a record is
// a few relaxed atomics (a histogram's series is found in one shard of its
// family). Names follow the OpenTelemetry MCP semantic conventions where
// they have one (mcp.server.operation.duration, mcp.server.session.duration);
// the rest are cafmcp's own.
#include <string_view>
#include <vector>

#include "cafmcp/metrics.hpp"

namespace cafmcp::actors {

struct runtime;

struct server_metrics {
  server_metrics(metrics_registry& r, runtime& rt);

  /// A request's duration from its arrival at the session to its answer.
  void request_done(std::string_view method, const std::string& error_type, double seconds) {
    duration.with({method, error_type}).record(seconds);
  }
  /// A session this node initialized ended, `seconds` after its initialize
  /// was answered.
  void session_done(const std::string& protocol_version, const char* transport, double seconds) {
    session_duration.with({protocol_version, transport ? transport : ""}).record(seconds);
  }
  void notifications_delivered(std::string_view method, std::size_t n) {
    if (n > 0)
      delivered.with({method}).add(n);
  }

  histogram_family& duration;    // mcp.server.operation.duration
  histogram_family& session_duration; // mcp.server.session.duration
  gauge_series& active_requests; // cafmcp.server.active_requests
  gauge_series& sessions;        // initialized sessions (the notifier's)
  gauge_series& subscriptions;   // (session, uri) pairs
  gauge_series& listeners;       // subscriptions/listen streams
  counter_family& delivered;     // notifications handed to sessions, by method
  counter_series& server_restarts;
  counter_series& notifier_restarts;
  // Read when collected: draining sessions, busy handler threads, the
  // cluster's log outbox. Unregistered with the runtime they read.
  std::vector<metric_observation> observed;
};

/// The histograms' bounds, as the semantic conventions recommend for MCP
/// operation and session durations (seconds).
inline const std::vector<double> operation_duration_bounds = {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1,
                                                              2,    5,    10,   30,  60,  120, 300};

} // namespace cafmcp::actors

#include "actors/server_metrics.hpp"

#include "actors/runtime.hpp"

namespace cafmcp::actors {

server_metrics::server_metrics(metrics_registry& r, runtime& rt)
  : duration(r.histogram("mcp.server.operation.duration", "s",
                         "MCP request duration as observed on the server, from its arrival to its answer",
                         operation_duration_bounds, {"mcp.method.name", "error.type"})),
    session_duration(r.histogram("mcp.server.session.duration", "s",
                                 "MCP session duration as observed on the server, from its initialize to its end",
                                 operation_duration_bounds, {"mcp.protocol.version", "network.transport"})),
    active_requests(r.up_down_counter("cafmcp.server.active_requests", "{request}",
                                      "Requests received and not yet answered")
                      .with({})),
    sessions(r.up_down_counter("cafmcp.sessions", "{session}", "Initialized MCP sessions").with({})),
    subscriptions(r.up_down_counter("cafmcp.subscriptions", "{subscription}",
                                    "resources/subscribe subscriptions held, as (session, URI) pairs")
                    .with({})),
    listeners(
      r.up_down_counter("cafmcp.listeners", "{stream}", "Open subscriptions/listen streams (2026-07-28)")
        .with({})),
    delivered(r.counter("cafmcp.notifications.delivered", "{notification}",
                        "Notifications handed to sessions' transports", {"mcp.method.name"})),
    server_restarts(r.counter("cafmcp.supervisor.restarts", "{restart}",
                              "Restarts of a crashed actor by the supervisor", {"cafmcp.actor"})
                      .with({"server"})),
    notifier_restarts(r.counter("cafmcp.supervisor.restarts", "{restart}",
                                "Restarts of a crashed actor by the supervisor", {"cafmcp.actor"})
                        .with({"notifier"})) {
  // `rt` owns this object: the callbacks end before it does.
  observed.push_back(r.observe(
    "cafmcp.sessions.draining", "{session}", "Sessions whose input ended, answering the requests they sent",
    metric_kind::up_down_counter,
    [&rt](metric_observer& o) { o.observe(static_cast<std::int64_t>(rt.draining_sessions.load())); }));
  observed.push_back(r.observe(
    "cafmcp.handlers.busy", "{thread}", "Handler threads running a call now", metric_kind::up_down_counter,
    [&rt](metric_observer& o) { o.observe(static_cast<std::int64_t>(rt.workers->busy_threads())); }));
  if (rt.cluster)
    observed.push_back(
      r.observe("cafmcp.cluster.log_outbox", "{change}",
                "Changes waiting for the cluster's log (it is unreachable)", metric_kind::up_down_counter,
                [&rt](metric_observer& o) { o.observe(static_cast<std::int64_t>(rt.cluster->outbox())); }));
}

} // namespace cafmcp::actors

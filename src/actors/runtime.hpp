#pragma once
// What every actor of one cafmcp::server shares: the options, the state the
// supervisor keeps across restarts, and where to find the current server
// and notifier (callers never hold a child's handle for long: a restart
// replaces it).
#include <atomic>
#include <memory>

#include "actors/cluster_node.hpp"
#include "actors/messages.hpp"
#include "actors/memory_task_store.hpp"
#include "actors/notifier.hpp"
#include "actors/published_tools.hpp"
#include "actors/server_metrics.hpp"
#include "actors/server_watch.hpp"
#include "actors/session_roster.hpp"
#include "actors/task_service.hpp"
#include "actors/worker_pool.hpp"
#include "protocol/registry.hpp"
#include "protocol/request_state.hpp"

namespace cafmcp::actors {

struct runtime {
  runtime(caf::actor_system& sys, std::shared_ptr<const server_options> opts)
    : system(sys), options(std::move(opts)) {}

  caf::actor_system& system;
  std::shared_ptr<const server_options> options;
  // Outlive their actors, so a restarted actor resumes where it died.
  std::shared_ptr<protocol::registry> registry = std::make_shared<protocol::registry>();
  // Its tools, as sessions read them to serve a tools/call themselves.
  published_tools tools;
  std::shared_ptr<notifier_state> notifier_data = std::make_shared<notifier_state>();
  std::shared_ptr<worker_pool> workers = std::make_shared<worker_pool>();
  // Tasks (tool::tasks), kept in memory; the server sets how they run again.
  std::shared_ptr<task_service> tasks =
    std::make_shared<task_service>(system, options->tasks, std::make_unique<memory_task_store>());

  // Every live session (shutdown tells each to exit), and what tells them
  // that a server actor ended.
  std::shared_ptr<session_roster> sessions = std::make_shared<session_roster>();
  std::shared_ptr<server_watch> server_ends = std::make_shared<server_watch>(sessions);

  std::atomic<std::size_t> server_restarts{0};
  std::atomic<std::size_t> notifier_restarts{0};
  std::atomic<std::uint64_t> next_session{0};
  std::atomic<std::size_t> draining_sessions{0};
  // Seals 2026-07-28 requestState: a random key per process, or the
  // cluster's secret, so that every node opens what another sealed.
  const protocol::request_state_seal request_state =
    protocol::request_state_seal::for_secret(options->cluster.secret);
  // Set when clustered (options->cluster.url); its threads run from the
  // server's start to its end, and it outlives every actor.
  std::unique_ptr<cluster_node> cluster;
  // The last logged_change the server actor handled, across its restarts.
  std::atomic<std::uint64_t> logged_handled{0};

  // Set when options->metrics is (after `cluster`, which it reads);
  // declared last: its callbacks, which read the members above, end first.
  std::unique_ptr<server_metrics> metrics;

  server_actor server() const;
  notifier_actor notifier() const;
  tracer* tracing() const { return options->tracer.get(); }
};

} // namespace cafmcp::actors

#pragma once
// The state behind a cafmcp::server handle: the actor system and the
// runtime its actors share. Tests include this to reach the actors.
#include <algorithm>
#include <mutex>
#include <thread>
#include <vector>

#include "cafmcp/server.hpp"

#include "actors/current_trace.hpp"
#include "actors/redis_task_store.hpp"
#include "cluster/cluster_url.hpp"
#include "actors/runtime.hpp"
#include "actors/post.hpp"
#include "actors/worker.hpp"
#include "actors/supervisor.hpp"
#include "foundation/usable_cpus.hpp"

namespace cafmcp {

struct server::impl {
  explicit impl(server_options o) : options(std::make_shared<const server_options>(std::move(o))) {
    // CAF's own default is at least 4 workers: on a 2-core machine the two
    // extra ones only add wake-ups and steals (tools/call, 16 clients:
    // +12% requests/s with 2). Handlers run on threads of their own, so
    // one worker per core never waits behind a blocked handler. The cores
    // counted are the ones this process may run on (a container's cpuset),
    // not the machine's.
    auto threads = options->scheduler_threads > 0
                     ? options->scheduler_threads
                     : std::max<std::size_t>(2, detail::usable_cpus());
    config.set("scheduler.max-threads", threads);
    // CAF's work-stealing workers, once idle, poll 500 more times with
    // 50 us sleeps before they rest: between the bursts of a fan-out that is
    // a core's worth of context switches on a small machine (perf: a third
    // of the server's samples). Spin briefly, then rest (woken by new work).
    config.set("work-stealing.moderate-poll-attempts", 0);
    config.set("work-stealing.aggressive-poll-attempts", options->scheduler_spin_polls);
    system = std::make_unique<caf::actor_system>(config);
    rt = std::make_shared<actors::runtime>(*system, options);
    if (!options->cluster.url.empty()) { // throws for a bad URL, before any actor exists
      rt->cluster = std::make_unique<actors::cluster_node>(*rt);
      // Clustered on Redis: tasks live there too, readable from every node.
      auto where = cluster::parse_log_url(options->cluster.url);
      if (auto* redis = std::get_if<cluster::redis_address>(&where))
        rt->tasks = std::make_shared<actors::task_service>(
          *system, options->tasks, std::make_unique<actors::redis_task_store>(*redis, options->cluster.key_prefix,
                                                                     rt->cluster->origin(),
                                                                     options->cluster.log_timeout));
    }
    std::weak_ptr<actors::runtime> weak = rt;
    rt->tasks->set_runner([weak](protocol::job job, actors::call c) {
      if (auto r = weak.lock())
        actors::run_on_worker(*r, std::move(job), std::move(c));
    });
    rt->tasks->set_notifier([](const actors::session_actor& session, json message) {
      caf::anon_send(session, actors::tell_atom::value, std::move(message));
    });
    // 2026-07-28 listen streams follow tasks by id: each move goes to the
    // notifier as tasks/get would show it (built here, on the task's actor).
    rt->tasks->set_watcher([weak](const protocol::task_record& t) {
      if (t.wire != protocol::task_wire::extension)
        return;
      if (auto r = weak.lock())
        caf::anon_send(r->notifier(), actors::task_atom::value, t.id, protocol::task_view(t));
    });
    if (options->metrics)
      rt->metrics = std::make_unique<actors::server_metrics>(*options->metrics, *rt);
    supervisor = system->spawn(actors::supervisor, rt, options->supervision);
    // Nothing may be sent to the server actor before it exists.
    caf::scoped_actor self{*system};
    self->request(supervisor, caf::infinite, actors::ready_atom::value)
      .receive([](bool) {}, [](caf::error&) {});
    if (rt->cluster)
      rt->cluster->start();
  }

  ~impl() {
    if (rt->cluster) // its reader sends to actors: it stops before they do
      rt->cluster->stop();
    rt->sessions->for_each_live(
      [](const caf::strong_actor_ptr& s) { caf::anon_send_exit(s, caf::exit_reason::user_shutdown); });
    caf::anon_send_exit(supervisor, caf::exit_reason::user_shutdown);
    rt->tasks->stop(); // running task handlers see cancelled() and end: shutdown waits for them
    auto workers = rt->workers;
    rt.reset();
    // A handler thread's last act is CAF's registry.dec_running(), which
    // lowers the running count and then notifies under the registry's lock:
    // ~actor_system, waiting for that count, could see it drop and destroy
    // the lock first (TSan, Requests.ACancelledRequestGetsNoResponse). The
    // pool says when its calls are over, dec_running included.
    workers->wait_idle();
    system.reset(); // waits for every actor
  }

  std::shared_ptr<connection> start_session(std::shared_ptr<outbound> out, std::string id, bool named,
                                            std::optional<protocol::session_record> adopted);

  using apply_fn = std::function<protocol::mutation_effect(protocol::registry&)>;

  std::future<bool> mutate(std::string what, apply_fn apply) {
    std::promise<bool> promised;
    auto result = promised.get_future();
    send_mutation(std::move(what), std::move(apply), std::make_shared<actors::mutation_end>(std::move(promised)));
    return result;
  }
  void mutate(std::string what, apply_fn apply, std::function<void(bool)> done) {
    send_mutation(std::move(what), std::move(apply), std::make_shared<actors::mutation_end>(std::move(done)));
  }
  // If the server actor is between incarnations the message is dropped and
  // its end with it (mutation_end says how that is told). From a quick or
  // asynchronous tool, the server actor runs next on this same worker.
  void send_mutation(std::string what, apply_fn apply, std::shared_ptr<actors::mutation_end> done) {
    actors::post(rt->server(), actors::mutate_atom::value,
                 actors::mutation{std::move(what), std::move(apply), std::move(done), actors::current_trace()});
  }

  std::shared_ptr<const server_options> options;
  caf::actor_system_config config;
  std::unique_ptr<caf::actor_system> system;
  std::shared_ptr<actors::runtime> rt;
  caf::actor supervisor;
};

} // namespace cafmcp

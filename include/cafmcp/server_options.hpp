#pragma once
// Everything a server author can tune. Every limit is explicit here.
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cafmcp/json.hpp"
#include "cafmcp/json_rpc.hpp"
#include "cafmcp/metrics.hpp"
#include "cafmcp/tracing.hpp"

namespace cafmcp {

/// Where list_changed operation metadata goes on the wire.
enum class change_metadata {
  /// `params: {operation, uri|name, resource|resourceTemplate|tool|prompt}`
  /// (seed 001's shape). Clients on the official TypeScript SDK strip
  /// these keys before their handler sees them.
  params,
  /// The same object under `params._meta["io.cafmcp/change"]`, which the
  /// TypeScript SDK passes through.
  meta,
  /// Both places.
  both,
  /// Plain list_changed with no params.
  none,
};

/// Which kinds the server declares. `automatic`: declared when at least one
/// item of that kind is registered when a client initializes.
enum class capability_mode { automatic, on, off };

/// One node of a cluster: replicas of one server behind a load balancer,
/// sharing one change log (README "Run a cluster"). Off while `url` is empty.
/// Tasks (tool::tasks): how many, how big and how long they are kept.
/// Every limit is refused with a JSON-RPC error naming it, never absorbed.
struct task_options {
  /// Tasks not yet expired, in all (running or finished).
  std::size_t max_tasks = 10000;
  /// Per owner: the caller's verified subject, else the session
  /// (2025-11-25), else (a 2026-07-28 client without a token) no per-owner
  /// limit beyond max_tasks.
  std::size_t max_tasks_per_owner = 100;
  /// A result larger than this (serialized) fails its task, naming the
  /// limit, instead of being kept.
  std::size_t max_result_bytes = 4 * 1024 * 1024;
  /// How long a task and its result are kept from its creation: the
  /// client's requested ttl (2025-11-25), clamped to [min_ttl, max_ttl],
  /// else default_ttl. A task still running at the end is cancelled.
  std::chrono::milliseconds default_ttl{10 * 60 * 1000};
  std::chrono::milliseconds min_ttl{1000};
  std::chrono::milliseconds max_ttl{24 * 60 * 60 * 1000};
  /// Suggested to clients between two tasks/get.
  std::chrono::milliseconds poll_interval{500};
  /// tasks/list page size (2025-11-25).
  std::size_t list_page_size = 50;
};

struct cluster_options {
  /// "redis://host[:port][/db]" (a Redis Stream), or "memory://NAME": nodes
  /// in one process sharing an in-memory log (tests, demos).
  std::string url;
  std::string key_prefix = "cafmcp"; // the log is the stream <prefix>:log
  std::string node_id;               // empty: a random one
  /// The key that seals what clients carry between requests (2026-07-28
  /// requestState): the same on every node, so any node opens what another
  /// sealed. Required with a cluster.
  std::string secret;
  /// Changes waiting while the log is unreachable. Past it they are dropped
  /// for one resync (every session told to re-read everything).
  std::size_t outbox_limit = 10000;
  /// Entries the log keeps (Redis trims approximately beyond it).
  std::size_t log_max_entries = 100000;
  /// Sessions whose state each node keeps from the log, so that any node
  /// can serve any of them (oldest forgotten first past it).
  std::size_t max_known_sessions = 100000;
  /// Entries each node keeps to resume a session's GET stream that another
  /// node served (Last-Event-ID): a client away longer gets 410.
  std::size_t replay_entries = 10000;
  /// How long a node owns the GET streams it serves without hearing from
  /// the log: one paused or cut off longer writes nothing to them until it
  /// hears again (and then nothing, if another node took one over). The
  /// node reads the log at least three times per lease.
  std::chrono::milliseconds stream_lease{6000};
  /// Connect and command timeout for the log; also the wait between retries
  /// is a tenth of it.
  std::chrono::milliseconds log_timeout{2000};
};

struct server_options {
  std::string name = "cafmcp-server";
  std::string version = "0.1.0";
  std::optional<std::string> title;
  std::optional<std::string> instructions;

  capability_mode tools = capability_mode::automatic;
  capability_mode resources = capability_mode::automatic;
  capability_mode prompts = capability_mode::automatic;
  /// Declare `completions: {}` (`completion/complete` is served either way
  /// when declared; off answers -32601).
  bool completions = true;
  /// Declare `resources.subscribe` and serve resources/subscribe.
  bool subscriptions = true;

  change_metadata list_changed_metadata = change_metadata::params;

  /// Which URIs a session may subscribe to (seed 004's whitelist). Empty:
  /// any URI that is a registered resource or matches a template. Refusal
  /// answers -32602 naming the URI.
  std::function<bool(std::string_view uri)> subscribable;

  jsonrpc::limits message_limits; // 4 MiB, depth 64
  std::size_t page_size = 100;    // items per list page
  std::size_t max_subscriptions_per_session = 1000;
  std::size_t max_concurrent_calls_per_session = 64;
  std::size_t max_outbound_queue = 10000; // frames buffered per connection
  std::chrono::milliseconds client_request_timeout = std::chrono::seconds(60);
  /// When a client ends its input (stdio EOF), how long the requests it
  /// already sent may still run and be answered before the session closes.
  std::chrono::milliseconds drain_timeout = std::chrono::seconds(30);

  /// 2026-07-28 caching hints (`ttlMs`, `cacheScope`) on stateless results:
  /// `lists` for server/discover and every */list, `reads` for resources/read.
  struct cache_hint {
    std::chrono::milliseconds ttl{0}; // 0: stale at once
    bool shared = false;              // "public" (any cache) or "private"
  };
  cache_hint list_cache;
  cache_hint read_cache;
  /// 2026-07-28 `subscriptions/listen` streams open at once (whole process),
  /// and resource URIs one stream may name. Over either: -32602 saying so.
  std::size_t max_listeners = 10000;
  std::size_t max_uris_per_listener = 1000;

  /// Restart intensity, as Erlang/OTP's: the supervisor restarts the server
  /// actor or the change notifier when one dies, at most `max_restarts`
  /// times within `window`; one more and it gives up and stops the server
  /// (a crash loop is reported, not hidden).
  struct supervision_limits {
    int max_restarts = 5;
    std::chrono::seconds window{10};
  };
  supervision_limits supervision;

  /// CAF scheduler threads (0: one per CPU this process may run on, by its
  /// affinity mask as taskset or a container's cpuset sets it; at least 2).
  std::size_t scheduler_threads = 0;
  /// How many times an idle scheduler thread looks for work before it
  /// sleeps (CAF's aggressive polling, about 10 ns a look here). Work that
  /// arrives meanwhile starts at once instead of after a wake-up (a futex,
  /// 10-25 us on a VM); the price is that spin after every burst of work.
  /// The default is CAF's; tune_for_stdio() raises it.
  std::size_t scheduler_spin_polls = 100;
  /// Run `tool::quick` handlers on their session's actor. false: every
  /// handler gets a thread of its own (e.g. to rule out a quick handler
  /// that blocks after all).
  bool inline_quick_handlers = true;

  /// Several nodes behind a load balancer (see cluster_options); off by default.
  cluster_options cluster;
  /// Tasks (tool::tasks): limits and lifetimes.
  task_options tasks;

  /// Tracing hook; nullptr: off.
  std::shared_ptr<cafmcp::tracer> tracer;
  /// Where the server records its metrics (README "Metrics"); nullptr: off,
  /// and free. The Streamable HTTP transport serves them at
  /// http_options::metrics_path; otel/ exports them over OTLP.
  std::shared_ptr<metrics_registry> metrics;
};

} // namespace cafmcp

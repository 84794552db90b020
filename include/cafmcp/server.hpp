#pragma once
// The embeddable MCP server. A `server` is a handle onto a small actor
// system: a supervisor, the server actor (registry of resources, templates,
// tools and prompts), the change notifier (sessions and subscriptions), and
// one session actor per client connection. Every method here is a plain
// function that sends a message; all of them are safe from any thread,
// including from inside handlers. Mutations are applied in the order a
// thread sends them; each returns a future that tells whether it changed
// anything (ignore it freely; it never blocks the caller). It is ready once
// the change's notifications have been handed to every session's transport.
#include <cstddef>
#include <functional>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cafmcp/auth.hpp"
#include "cafmcp/prompt.hpp"
#include "cafmcp/resource.hpp"
#include "cafmcp/server_options.hpp"
#include "cafmcp/tool.hpp"
#include "cafmcp/transport.hpp"

namespace cafmcp {

/// What the notifier holds right now (for tests, health checks, the load tool).
struct server_stats {
  std::size_t sessions = 0;          // initialized sessions registered
  std::size_t subscriptions = 0;     // (session, uri) pairs
  std::size_t subscribed_uris = 0;   // distinct uris with a subscriber
  std::size_t broadcasts = 0;        // notifications built (each serialized once)
  std::size_t deliveries = 0;        // frames handed to sessions
  std::size_t server_restarts = 0;   // supervisor restarts of the server actor
  std::size_t notifier_restarts = 0; // ... of the change notifier
  std::size_t draining_sessions = 0; // input ended, answering requests in flight
  std::size_t listeners = 0;         // open subscriptions/listen streams (2026-07-28)
  std::size_t log_outbox = 0;        // clustered: changes waiting for the log
  std::size_t log_overflows = 0;     // clustered: outbox overflows (each sent a resync)
};

/// What GET /healthz reports. A single node is always ok; a cluster node is
/// degraded while its change log is unreachable (it serves its own sessions
/// meanwhile, and holds back their changes in its outbox).
struct server_health {
  bool ok = true;
  std::string reason; // why not ok
};

/// Clustered: what the change log told one session after a mark
/// (server::replay), for a transport resuming its stream on another node.
struct log_replay {
  bool complete = false;                            // false: this node no longer keeps entries it needs
  std::vector<std::pair<log_mark, frame>> messages; // in order
  log_mark upto;                                    // told up to here; later entries reach the session live
};

/// Clustered: this node's claim on one session's GET stream
/// (server::claim_stream), for the transport that writes it.
class stream_claim {
public:
  virtual ~stream_claim() = default;
  /// Another node claimed the stream after this one, in log order: write
  /// nothing more to it.
  virtual bool taken_over() const = 0;
  /// This node heard from the log within its lease (cluster.stream_lease).
  /// A node paused or cut off longer may have been taken over without
  /// knowing it yet: it holds what it would write until it hears again.
  virtual bool lease_holds() const = 0;
  /// No stream of this session was claimed before this one, on any node (in
  /// log order): no GET stream carried anything yet, so everything the log
  /// told the session after this mark (its start) is owed to this stream.
  /// nullopt: an earlier stream may have carried some of it.
  virtual std::optional<log_mark> first_since() const { return std::nullopt; }
};

class server {
public:
  explicit server(server_options options = {});
  ~server(); // stops every session and the actor system
  server(const server&) = delete;
  server& operator=(const server&) = delete;

  // -- registry mutations: each sends one message to the server actor ------
  /// Adds, or replaces (then list_changed says "updated"). False: invalid.
  std::future<bool> add_resource(resource r);
  std::future<bool> remove_resource(std::string uri);
  std::future<bool> add_resource_template(resource_template t);
  std::future<bool> remove_resource_template(std::string uri_template);
  std::future<bool> add_tool(tool t);
  std::future<bool> remove_tool(std::string name);
  std::future<bool> add_prompt(prompt p);
  std::future<bool> remove_prompt(std::string name);
  /// Replaces the text or blob of a static resource and tells subscribers
  /// (`notifications/resources/updated`); the descriptor stays.
  std::future<bool> set_resource_contents(std::string uri, std::vector<resource_contents> c);
  /// The same mutations, for code that must not block, such as an
  /// asynchronous tool (tool::async_handler): `done(changed)` is called
  /// once, when the future would be ready. false: nothing changed (invalid,
  /// unknown), or the mutation was lost with a server actor restarting
  /// (where the future breaks). It runs on one of the server's actors, so
  /// it must be short and must not block: answer a tool_reply, post a message.
  using mutation_done = std::function<void(bool changed)>;
  void add_resource(resource r, mutation_done done);
  void remove_resource(std::string uri, mutation_done done);
  void add_resource_template(resource_template t, mutation_done done);
  void remove_resource_template(std::string uri_template, mutation_done done);
  void add_tool(tool t, mutation_done done);
  void remove_tool(std::string name, mutation_done done);
  void add_prompt(prompt p, mutation_done done);
  void remove_prompt(std::string name, mutation_done done);
  void set_resource_contents(std::string uri, std::vector<resource_contents> c, mutation_done done);
  /// The content behind `uri` changed (a dynamic resource, a template
  /// expansion): `notifications/resources/updated` to its subscribers only.
  void resource_updated(std::string uri);

  // -- connections -------------------------------------------------------
  /// For a transport's event-loop thread: while the returned handle lives,
  /// a session this thread hands a message to (`connection::receive`), if
  /// idle, runs on this thread, and so do the actors it wakes in turn;
  /// `post(fn)` must run fn on this thread soon after the current work
  /// (the loop's post). Release the handle on the same thread, before the
  /// server; what was still queued then goes to the actor threads.
  /// `post_from::any_thread`: `post` may be called from any thread and
  /// wakes the loop (Asio's post). A clustered server then announces what
  /// it reads from the log on the first such loop, so that loop's sessions
  /// hear of it as a single node's do, without a hop through the actor
  /// threads; and a handler thread's answer to a request this loop's
  /// actors handed it goes back through the loop (one wake-up: the loop's).
  /// `post_from::any_thread_while_awaited`: for a loop that sleeps where
  /// its `post` cannot wake it (stdio's reader, in read(2)), and so is not
  /// the cluster's announcing loop: a handler thread's answer comes back
  /// through `post` as above, from any thread, and posts_awaited() says
  /// when one is on its way (the loop must then sleep where `post` wakes it).
  enum class post_from { this_thread, any_thread, any_thread_while_awaited };
  std::shared_ptr<void> run_actors_here(std::function<void(std::function<void()>)> post,
                                        post_from callers = post_from::this_thread);
  /// For a loop running actors (`actors_here`, run_actors_here's handle):
  /// whether a post from another thread is on its way to it, i.e. one of
  /// its actors handed a request to a handler thread that has not answered
  /// yet. Asked after the loop's own work, before it sleeps: no new one
  /// comes while the loop sleeps, only ones already awaited.
  static bool posts_awaited(const std::shared_ptr<void>& actors_here);
  /// A new session for a transport. The transport feeds it inbound texts
  /// and receives outbound frames through `out`.
  std::shared_ptr<connection> connect(std::shared_ptr<outbound> out);
  /// The same, for a session its transport names (HTTP's Mcp-Session-Id):
  /// in a cluster, any node can serve it by that name (adopt).
  std::shared_ptr<connection> connect(std::shared_ptr<outbound> out, std::string session_id);
  /// Clustered: serve here the session `session_id` that another node
  /// started, in the state the change log last recorded for it. nullptr
  /// when this node knows no such session (never announced, ended, or not
  /// clustered): the transport answers as for any unknown session. With
  /// `caller` (HTTP with a token verifier): nullptr too when the session
  /// belongs to another subject.
  std::shared_ptr<connection> adopt(std::shared_ptr<outbound> out, const std::string& session_id,
                                    const auth::identity* caller = nullptr);
  /// The client ended session `session_id` (HTTP DELETE): clustered, no
  /// node adopts it any more.
  void forget(const std::string& session_id);
  /// Clustered: what the change log told session `session_id` after
  /// `after` (a mark of its stream, from this node or another), from the
  /// entries this node keeps. Not clustered: nothing, incomplete.
  log_replay replay(const std::string& session_id, const log_mark& after);
  /// Clustered: the log entry this node's sessions are being told of now;
  /// a session connecting from here on hears only of later ones.
  log_mark log_now() const;
  /// Clustered: this node serves session `session_id`'s GET stream from
  /// now on (logged; the last claim in the log owns the stream). Not
  /// clustered: nullptr (the only node owns every stream).
  std::shared_ptr<stream_claim> claim_stream(const std::string& session_id);

  /// A consistent snapshot from the notifier; also a barrier: every
  /// broadcast the notifier had received before is handed to sessions.
  server_stats stats();

  server_health health() const;

  const server_options& options() const;

  struct impl;

private:
  friend struct server_access; // cafmcp's components and tests (private header)
  std::unique_ptr<impl> impl_;
};

} // namespace cafmcp

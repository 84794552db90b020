#pragma once
// One MCP session over Streamable HTTP: the transport side of a session
// actor. It routes each outgoing frame to exactly one stream (the POST
// stream of the request it belongs to, or the standalone GET stream), keeps
// every stream's bounded history for Last-Event-ID, and holds what no
// connection can take right now. All of it runs on the event-loop thread;
// send()/close() are the only entry points from actor threads.
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include <boost/container/deque.hpp>

#include "cafmcp/http_options.hpp"
#include "cafmcp/server.hpp"
#include "cafmcp/transport.hpp"

#include "foundation/prefetch.hpp"
#include "streamable_http/auth_challenge.hpp"
#include "streamable_http/event_store.hpp"
#include "streamable_http/http_conn.hpp"
#include "streamable_http/loop_handoff.hpp"

namespace cafmcp::http {

class http_session;

/// What an actor thread hands one session: a frame, or a signal about one
/// request or the whole session. The loop runs it (http_session::run).
struct outgoing {
  enum class kind { frame, end_request, release_stream, close };
  std::shared_ptr<http_session> to;
  frame message; // kind::frame only
  routing where; // kind::frame; end_request and release_stream name their request here
  kind what = kind::frame;
};

/// What actor threads send the sessions of one loop, one loop post per
/// batch (a broadcast).
using session_outbox = loop_handoff<outgoing>;

/// What a session needs of the loop it lives on (the request router).
class session_host {
public:
  virtual server& core() = 0;
  virtual const http_options& options() const = 0;
  /// Shared with the sessions: an actor thread may still send to one while
  /// the transport is destroyed, and finds the outbox closed, not freed.
  virtual const std::shared_ptr<session_outbox>& outbox() const = 0;
  /// What the histories of every session on this loop may hold together.
  virtual const std::shared_ptr<history_budget>& histories() const = 0;
  /// The challenges of 401 and 403 (an insufficient_scope answer).
  virtual const auth_surface& auth() const = 0;
  /// The session ended (once): it no longer serves requests.
  virtual void ended(const http_session& s) = 0;

protected:
  ~session_host() = default;
};

class http_session : public outbound, public std::enable_shared_from_this<http_session> {
public:
  /// `stateless`: one 2026-07-28 request outside any session; it ends with
  /// that request's answer or its connection.
  http_session(std::string id, session_host& host, bool stateless = false);

  /// Runs on the loop what an actor thread handed over (the outbox's job).
  static void run(outgoing& o);

  // -- from actor threads ------------------------------------------------
  bool send(frame message, const routing& where) override;
  void end_request(const std::string& key) override;
  void release_stream(const std::string& key) override;
  void close() override;
  const char* network_transport() const override { return "tcp"; }
  bool stateless() const override { return stateless_; }
  void prefetch() const noexcept override;

  // -- on the event loop -------------------------------------------------
  void attach(std::shared_ptr<connection> core) { core_ = std::move(core); }
  /// True while a request with this id awaits its response: a second one
  /// would take over its answer, so the transport refuses it.
  bool in_flight(const std::string& key) const { return pending_.count(key) != 0; }
  /// A request POST: its answer goes back on `c` (JSON, or an SSE stream
  /// once a related message precedes it).
  /// `who`: the verified caller (null without a verifier).
  void post_request(const std::shared_ptr<http_conn>& c, std::string key, jsonrpc::message msg,
                    bool initialize, std::shared_ptr<const auth::identity> who = nullptr,
                    std::shared_ptr<const std::map<std::string, std::string>> param_headers = nullptr);
  /// A notification or response POST (answered 202 by the caller).
  void post_other(jsonrpc::message msg, std::shared_ptr<const auth::identity> who = nullptr);
  /// GET: the standalone stream, or the resumption of any stream.
  void open_stream(const std::shared_ptr<http_conn>& c, const std::optional<std::string>& last_event_id);
  /// DELETE, idle expiry, shutdown: the session actor stops. Each request
  /// still in flight is answered with `status` and a JSON-RPC error saying
  /// `why` (on its SSE stream when it has one): a client is owed an answer.
  void end(int status = 404, const std::string& why = "Session ended before this request was answered; "
                                                      "initialize again");

  /// Shutdown: the session actor answers the requests in flight and ends
  /// its listen streams with their completion result, then closes (which
  /// ends this session). end() still answers what is left at the deadline.
  void drain();

  const std::string& id() const { return id_; }
  /// The subject whose token created the session (with a verifier): only
  /// its tokens may use it.
  const std::optional<std::string>& owner() const { return owner_; }
  void set_owner(std::string subject) { owner_ = std::move(subject); }
  bool ended() const { return ended_; }
  bool idle_since(std::chrono::steady_clock::time_point t) const;
  void keep_alive(std::chrono::steady_clock::time_point older_than);
  /// Forgets request streams that ended before `older_than`.
  void expire(std::chrono::steady_clock::time_point older_than);
  /// The headers every answer on this session carries (built once).
  const std::string& headers() const { return headers_; }

private:
  struct stream {
    template <class... Args>
    explicit stream(Args&&... history_bounds) : history(std::forward<Args>(history_bounds)...) {}
    // A delivery's fields first: they share the map node's first line.
    std::weak_ptr<http_conn> conn;
    std::uint64_t delivered = 0; // standalone stream: last seq written to a connection
    event_store history;
    bool finished = false; // its final response was sent
    std::chrono::steady_clock::time_point finished_at;
  };
  struct pending {
    // Strong: nothing else keeps a connection alive while it waits for
    // its answer (an SSE stream's own read keeps it alive afterwards).
    std::shared_ptr<http_conn> conn;
    std::uint64_t stream = 0; // 0 until the answer turns into an SSE stream
    bool initialize = false;
  };

  bool hand_over(outgoing o); // to the loop, unless closing
  bool answers_here(const std::string& key) const;
  void route(frame f, const routing& where, http_conn::followed next = http_conn::followed::maybe);
  void end_without_response(const std::string& key);
  void release_stream_of(const std::string& key);
  void answer_json(pending& p, const frame& f);
  void start_stream(pending& p);
  void release(pending& p);
  void finish(std::uint64_t stream_id);
  stream& new_stream(std::uint64_t id);
  void write(stream& s, std::uint64_t stream_id, std::uint64_t seq, frame f,
             http_conn::followed next = http_conn::followed::maybe);
  void write_marked(stream& s, const stream_mark& m, const frame& f);
  void route_marked(const frame& f, const std::optional<log_mark>& logged, http_conn::followed next);
  void flush_marked(http_conn::followed next = http_conn::followed::maybe);
  void open_marked_stream(const std::shared_ptr<http_conn>& c, const std::optional<stream_mark>& after);
  void attach_stream(stream& s, std::uint64_t id, const std::shared_ptr<http_conn>& c);
  void touch() { last_activity_ = std::chrono::steady_clock::now(); }

  // What a delivery reads comes first (the line after the reference count
  // and the vtable): a broadcast to 10,000 sessions misses on each line it
  // touches.
  std::atomic<bool> closing_{false};
  bool ended_ = false;
  bool stateless_ = false;
  // Clustered: the standalone stream's events are named by stream_marks,
  // and any node resumes them from the change log.
  bool clustered_ = false;
  stream* standalone_ = nullptr; // streams_'s 0, made with the session, kept till its end
  // The connection its GET stream was last attached to: for prefetch()
  // only, never read through (it may be gone; a prefetch never faults).
  // Atomic: the notifier may run on another loop's thread.
  std::atomic<const http_conn*> standalone_conn_{nullptr};
  std::shared_ptr<session_outbox> outbox_;
  std::string id_;
  std::optional<std::string> owner_;
  session_host& host_; // the loop thread's; actor threads use only outbox_
  const http_options& options_;
  std::string headers_;                   // "Mcp-Session-Id: ...\r\n", or nothing when stateless
  stream_mark last_mark_;                 // the newest event of the standalone stream
  std::optional<log_mark> replayed_upto_; // notifications up to here were told by a replay
  std::shared_ptr<stream_claim> claim_;   // on the open GET stream
  std::shared_ptr<connection> core_;
  std::map<std::uint64_t, stream> streams_; // 0: the standalone GET stream
  std::unordered_map<std::string, pending> pending_;
  // Request streams, oldest first (Boost's deque: no allocation until one).
  boost::container::deque<std::uint64_t> finished_;
  std::uint64_t next_stream_ = 1;
  std::chrono::steady_clock::time_point last_activity_ = std::chrono::steady_clock::now();
};

// A storm's frames reach the outbox in batches (loop_handoff.hpp): the
// session a few frames ahead is asked for, then what its standalone stream
// reads.
inline void prefetch_far(const outgoing& o) noexcept { prefetch_lines(o.to.get(), 2); }
inline void prefetch_near(const outgoing& o) noexcept {
  if (o.to)
    o.to->prefetch();
}

} // namespace cafmcp::http

#pragma once
// A server's place in a cluster: it hands the server actor's changes to the
// shared log, and feeds what the log says back to the server actor, once
// each and in log order. Every node, this one included, announces changes
// only as it reads them from the log, so every session on every node hears
// of them in the same order. Created by the server when
// server_options::cluster.url is set; the single-node path never sees it.
//
//   server actor --publish--> log_writer --XADD--> log
//   log --XREAD--> log_reader --logged--> server actor --change--> notifier
//                  (posted to the announcing loop, announcing_loop.hpp)
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

#include "actors/announcing_loop.hpp"
#include "actors/messages.hpp"
#include "cluster/link_health.hpp"
#include "cluster/log_reader.hpp"
#include "cluster/log_writer.hpp"
#include "cluster/origin_filter.hpp"
#include "protocol/log_record.hpp"
#include "protocol/recent_log.hpp"

namespace cafmcp::actors {

struct runtime;

class cluster_node {
public:
  /// Throws std::invalid_argument for a bad cluster URL or a missing secret.
  explicit cluster_node(runtime& rt);
  ~cluster_node();

  /// Starts following the log. The server actor must exist by then.
  void start();
  /// Stops following it (nothing more reaches the actors); the writer goes
  /// with this object.
  void stop();

  /// From the server actor: logs `r` (numbered here); `done` settles once
  /// this node has read it back and handed it to its sessions, or when an
  /// outbox overflow drops it.
  void publish(protocol::log_record r, settlement_ptr done);
  /// The settlement of this node's entry `seq`, read back from the log.
  settlement_ptr delivered(std::uint64_t seq);

  /// What the log last said of session `id` (any node's), if anything:
  /// what another node needs to serve it. From any thread. Not known yet:
  /// it waits (up to the log timeout) until this node has read the log as
  /// far as it reaches now, for a session announced a moment ago.
  std::optional<protocol::session_record> known_session(const std::string& id);
  bool own(const protocol::log_record& r) const { return r.origin == origin_; }
  /// The client ended session `id` here: this node forgets it at once
  /// (others when they read its end).
  void forget(const std::string& id);

  /// What the log told session `id` after `after`, from the entries this
  /// node keeps (cluster.replay_entries): a GET stream another node served
  /// resumes here. From any thread.
  protocol::recent_log::replay replay(const std::string& id, log_mark after);
  /// From the notifier: it tells sessions of the entry at `at` now.
  void notifying(log_mark at);
  /// The entry the notifier tells sessions of now (its k: whole_entry): a
  /// session that joins later hears only of entries after it.
  log_mark notifying_now() const;
  /// Claims session `id`'s GET stream for this node (logged).
  std::shared_ptr<stream_claim> claim(const std::string& id);

  std::optional<std::string> problem() const { return health_.problem(); }
  std::size_t outbox() const { return writer_ ? writer_->waiting() : 0; }
  std::size_t overflows() const { return writer_ ? writer_->overflows() : 0; }
  const std::string& origin() const { return origin_; }
  /// Where what the log says is announced (announcing_loop.hpp).
  announcing_loop& announcer() { return announcer_; }

private:
  void on_entries(std::vector<cluster::log_entry>& entries, bool history);
  void hand_on(std::vector<logged_change> batch);

  runtime& rt_;
  const std::string origin_;
  cluster::log_connector connect_;
  cluster::link_health health_;
  void remember(const protocol::log_record::session_note& note, log_mark at);
  void settle_claim(const protocol::log_record& r);

  // Claims on the GET streams this node serves, by session. A claim is
  // taken over when another node's claim of the stream follows it in the
  // log; until this node's own claim is read back, another's is older.
  struct claim_state;
  std::mutex claims_mtx_;
  std::condition_variable claim_read_; // a claim of ours came back from the log
  std::unordered_map<std::string, std::weak_ptr<claim_state>> claims_;
  std::uint64_t claims_made_ = 0;
  // When the reader last heard from the log (steady clock, ns): what a
  // claim's lease counts from. Shared with the claims, which may outlive
  // this node by a moment in a transport.
  std::shared_ptr<std::atomic<std::int64_t>> heard_at_ = std::make_shared<std::atomic<std::int64_t>>(0);

  announcing_loop announcer_;
  cluster::origin_filter filter_; // the reader thread's alone
  std::uint64_t handed_ = 0;      // the same
  // Sessions the log told of, newest record each, oldest first out past
  // cluster_options::max_known_sessions. Written by the reader thread, read
  // when a request names a session this node does not hold.
  struct known_session_entry {
    log_mark started; // its first record
    std::pair<log_mark, protocol::session_record> latest;
    bool streamed = false; // a claim of its GET stream was read
  };
  mutable std::mutex known_mtx_;
  std::condition_variable read_further_;
  std::unordered_map<std::string, known_session_entry> known_;
  std::deque<std::string> known_order_;
  cluster::log_position read_upto_; // the last entry the reader handed on
  // Filled by the reader before it hands an entry on, so a replay and the
  // live stream after it meet (see http_session::open_stream).
  mutable std::mutex recent_mtx_;
  protocol::recent_log recent_;
  log_mark notifying_{0, 0, protocol::whole_entry};
  // One connection to ask the log how far it reaches (known_session).
  std::mutex probe_mtx_;
  std::unique_ptr<cluster::log_backend> probe_;
  std::unique_ptr<cluster::log_writer> writer_;
  std::unique_ptr<cluster::log_reader> reader_;
};

} // namespace cafmcp::actors

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
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "actors/messages.hpp"
#include "cluster/link_health.hpp"
#include "cluster/log_reader.hpp"
#include "cluster/log_writer.hpp"
#include "cluster/origin_filter.hpp"
#include "protocol/log_record.hpp"

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
  bool own(const protocol::log_record& r) const { return r.origin == origin_; }

  std::optional<std::string> problem() const { return health_.problem(); }
  std::size_t outbox() const { return writer_ ? writer_->waiting() : 0; }
  std::size_t overflows() const { return writer_ ? writer_->overflows() : 0; }
  const std::string& origin() const { return origin_; }

private:
  void on_entries(std::vector<cluster::log_entry>& entries, bool history);

  runtime& rt_;
  const std::string origin_;
  cluster::log_connector connect_;
  cluster::link_health health_;
  cluster::origin_filter filter_; // the reader thread's alone
  std::uint64_t handed_ = 0;      // the same
  std::unique_ptr<cluster::log_writer> writer_;
  std::unique_ptr<cluster::log_reader> reader_;
};

} // namespace cafmcp::actors

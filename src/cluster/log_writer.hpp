#pragma once
// Appends a node's changes to the log from a thread of its own, in order,
// through a bounded outbox: while the log is unreachable changes wait there
// and go out, each once and in order, when it returns. When the outbox is
// full the waiting changes are dropped and replaced by one resync entry (the
// honest fallback: every node then tells every session to re-read
// everything), never silently lost.
//
// Cost: append() takes one lock and encodes one entry; the thread sends up
// to `batch` entries per round trip (pipelined), so a burst costs one round
// trip per batch, not per change.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "cluster/link_health.hpp"
#include "cluster/log_backend.hpp"

namespace cafmcp::cluster {

class log_writer {
public:
  /// Makes an entry's text once its sequence number is known.
  using encoder = std::function<std::string(std::uint64_t seq)>;
  struct limits {
    std::size_t outbox = 10000;           // entries waiting, at most
    std::size_t batch = 256;              // entries per round trip
    std::chrono::milliseconds retry{200}; // between connection attempts
  };

  log_writer(log_connector connect, limits l, encoder resync, link_health& health);
  ~log_writer(); // stops the thread; what still waits is dropped with it

  /// Queues one entry, numbered in queue order (1, 2, ...). `token` is
  /// held until taken() hands it back or an overflow drops the entry (then
  /// it is released: whatever it settles, settles).
  std::uint64_t append(const encoder& encode, std::shared_ptr<void> token);
  /// The token of entry `seq`, once the log has it back to its origin
  /// (nullptr when there is none).
  std::shared_ptr<void> taken(std::uint64_t seq);

  std::size_t waiting() const;
  std::size_t overflows() const;

private:
  struct pending {
    std::uint64_t seq;
    std::string body;
  };
  void run();
  bool pause(std::chrono::milliseconds d); // false: stopping

  log_connector connect_;
  limits limits_;
  encoder resync_;
  link_health& health_;
  mutable std::mutex mtx_;
  std::condition_variable wake_;
  std::deque<pending> queue_;
  std::map<std::uint64_t, std::shared_ptr<void>> tokens_;
  std::uint64_t next_seq_ = 0;
  std::size_t overflows_ = 0;
  bool stop_ = false;
  std::thread thread_; // last: starts once the rest exists
};

} // namespace cafmcp::cluster

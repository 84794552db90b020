#pragma once
// Follows the log from a thread of its own and hands every entry, in log
// order, to one handler. It starts at the log's beginning: entries up to
// `history_end` (the newest one when the node started) are history (a node
// that joins late recreates the replicated data from them, and announces
// none of it); the rest are live. A failed connection is retried from the last position handed on,
// so an outage of the log delays entries and loses none.
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "cluster/link_health.hpp"
#include "cluster/log_backend.hpp"

namespace cafmcp::cluster {

class log_reader {
public:
  /// Called with each batch read, in order.
  using handler = std::function<void(std::vector<log_entry>& entries, bool history)>;
  /// Called after the handler when a read came back short of a full batch:
  /// every entry logged before `asked` (when that read was sent) has been
  /// handed on. What a lease counts from: a reply that was on its way
  /// while the node was paused tells nothing of what was logged since.
  using caught_up = std::function<void(std::chrono::steady_clock::time_point asked)>;
  struct limits {
    std::size_t batch = 512;              // entries per read, at most
    std::chrono::milliseconds wait{1000}; // a read's longest wait for news
    std::chrono::milliseconds retry{200}; // between connection attempts
  };

  /// `history_end` unknown (the log was unreachable at start): the newest
  /// entry when the reader first reaches the log.
  log_reader(log_connector connect, limits l, handler h, link_health& health,
             std::optional<log_position> history_end = std::nullopt, caught_up c = nullptr);
  ~log_reader(); // interrupts a waiting read, stops the thread

private:
  void run();
  std::shared_ptr<log_backend> reconnect(); // nullptr: stopping
  bool pause(std::chrono::milliseconds d);  // false: stopping

  log_connector connect_;
  limits limits_;
  handler handler_;
  caught_up caught_up_;
  link_health& health_;
  std::mutex mtx_;
  std::condition_variable wake_;
  std::shared_ptr<log_backend> conn_; // under mtx_, for interrupt()
  bool stop_ = false;
  std::optional<log_position> history_end_; // the thread's, once it runs
  std::thread thread_;
};

} // namespace cafmcp::cluster

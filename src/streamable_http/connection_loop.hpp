#pragma once
// What an event loop lends the connections on it: its io_context, the
// limits a connection enforces while it reads and writes, the counters all
// loops share, the batch of writes due on the loop's next step, and the
// handler that parsed requests go to. A connection knows nothing above
// this: it hands each request to `handler` with itself as the way to
// answer, as Beast's own servers do.
#include <atomic>
#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <sys/uio.h>

#include "streamable_http/http_request.hpp"
#include "streamable_http/loop_handoff.hpp"
#include "streamable_http/send_ring.hpp"

namespace cafmcp::http {

class http_conn;

/// Set from http_options; read on every request and write.
struct connection_limits {
  std::size_t max_body_bytes = 0;   // -> 413
  std::size_t max_header_bytes = 0; // -> 431
  /// Bytes a client may leave unread before it is disconnected.
  std::size_t max_unread_bytes = 0;
  std::size_t max_connections = 0;             // -> 503
  std::chrono::milliseconds header_timeout{0}; // -> 408, or a close when nothing came
  std::chrono::milliseconds body_timeout{0};   // -> 408
};

/// What the connections of every loop count together (stats() reads them
/// from any thread).
struct connection_counters {
  std::atomic<std::size_t> open_connections{0};
  std::atomic<std::size_t> open_streams{0};
  std::atomic<std::size_t> dropped_slow{0};
  /// Bytes handed to connections and not yet written to their sockets.
  std::atomic<std::size_t> queued_bytes{0};
};

/// Takes what a connection read. Both calls answer through `reply`, at once
/// or later (a request's answer may come from an actor thread's frame).
class request_handler {
public:
  /// One parsed request.
  virtual void handle(const std::shared_ptr<http_conn>& reply, request req) = 0;
  /// A request that could not be read (too large, malformed HTTP): answer
  /// `status`; the connection closes after the answer.
  virtual void refuse(const std::shared_ptr<http_conn>& reply, int status, std::string_view why) = 0;

protected:
  ~request_handler() = default;
};

/// The small writes that one step of the loop's due writes starts: each
/// connection's bytes copied one after another, sent together once every
/// due connection has added its own (send_ring.hpp). Loop thread only.
/// Cleared, not freed, after each round: no allocation per broadcast, for
/// the price of holding the largest round's bytes (an event per stream,
/// ~150 bytes each: ~1.5 MB after a broadcast to 10,000 streams).
struct collected_writes {
  std::vector<std::shared_ptr<http_conn>> writers;
  std::vector<send_ring::job> jobs; // data set when they are sent: `bytes` may move until then
  std::vector<std::size_t> starts;  // each job's offset in `bytes`
  std::string bytes;

  void add(int fd, std::shared_ptr<http_conn> writer, const ::iovec* pieces, std::size_t count,
           std::size_t total) {
    starts.push_back(bytes.size());
    for (std::size_t i = 0; i < count; ++i)
      bytes.append(static_cast<const char*>(pieces[i].iov_base), pieces[i].iov_len);
    jobs.push_back({fd, nullptr, total, 0});
    writers.push_back(std::move(writer));
  }
  void clear() {
    writers.clear();
    jobs.clear();
    starts.clear();
    bytes.clear();
  }
};

struct connection_loop {
  using write_starter = loop_handoff<std::shared_ptr<http_conn>, loop_only_lock>::run_fn;
  using writes_sender = loop_handoff<std::shared_ptr<http_conn>, loop_only_lock>::batch_end_fn;
  /// `start_write`: what starts a connection's due write
  /// (http_conn::start_due_write), `send_collected` what sends the writes
  /// they collected (http_conn::send_collected); passed in, so that the
  /// loop needs to know nothing of connections but their name.
  /// `batch_writes`: collect them at all (http_options::batched_writes).
  connection_loop(connection_limits l, connection_counters& c, write_starter start_write,
                  writes_sender send_collected, bool batch_writes)
    : limits(l), counters(c), sends(batch_writes), writes_due(ioc, start_write, send_collected, this) {}
  ~connection_loop() { writes_due.close(); }

  connection_limits limits;
  // Outlives every loop: connections count themselves out here while the
  // event loop's leftover handlers are destroyed.
  connection_counters& counters;
  request_handler* handler = nullptr; // set before the loop runs
  // A write's scratch, shared by the loop's connections (a write is built
  // and made in one step): small writes flattened, and the pieces of a
  // gathered one. Per connection they were a heap block each, touched on
  // every delivery.
  std::string write_buffer;
  std::vector<::iovec> gather;
  /// Connections with bytes queued or being written: a shutdown waits for
  /// none before it stops the loop (loop thread only).
  std::size_t unwritten = 0;
  /// Sends many writes with one system call where io_uring is available.
  send_ring sends;
  /// While the due writes of one step run: small writes are collected into
  /// `collected` rather than sent one by one (only when sends.batched()).
  bool collecting = false;
  collected_writes collected;
  collected_writes sending; // the round being sent; what its completions start goes to `collected`
  /// Connections with frames queued and no write yet: their writes start
  /// together on the loop's next step, each taking all its queued frames.
  /// Only keeps a reference to ioc (declared after it, constructed before
  /// it): it posts once the loop runs.
  loop_handoff<std::shared_ptr<http_conn>, loop_only_lock> writes_due;
  net::io_context ioc{1}; // destroyed first: its pending handlers hold connections
};

} // namespace cafmcp::http

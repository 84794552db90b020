#pragma once
// The stdio transport's output: newline-terminated frames on a file
// descriptor (a pipe, in the usual case), written on a thread of its own so
// that actors never block on a slow reader. The queue is bounded, and a full
// queue ends the session.
//
// When nothing is queued or being written, the sender first tries the write
// itself without blocking (RWF_NOWAIT): a pipe with room takes the line at
// once, with no hand-off to the writer thread (a wake-up saved per message,
// most of stdio's latency on an idle machine). Order is kept: while any write
// is in progress, later frames queue behind it.
//
// hold() .. release() gathers what is sent meanwhile (from any thread, in
// order) into one writev (of at most max_batch lines: a longer run goes out
// in batches as it comes). The stdio reader holds while it handles the lines
// of one read: an answer and the notifications it caused then reach the
// client in one write and one wake-up of its reader, not one of each per
// line (two lines per update in the stdio load row: ~14% more updates/s).
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

#include "cafmcp/transport.hpp"

namespace cafmcp::transport {

class line_writer : public outbound {
public:
  line_writer(int fd, std::size_t max_queue);
  ~line_writer() override;

  bool send(frame message, const routing&) override;
  void close() override;
  const char* network_transport() const override { return "pipe"; }

  /// Until release(), frames queue instead of being written.
  void hold();
  /// Writes what queued during the hold (or hands it to the writer thread
  /// when a write is under way or the pipe is full).
  void release();

  /// Blocks until the session closed us (or `limit` passed), then until
  /// every queued frame is written (or the pipe broke).
  void drain_and_stop(std::chrono::milliseconds limit);

private:
  static constexpr std::size_t failed = static_cast<std::size_t>(-1);
  static constexpr std::size_t max_batch = 64; // lines in one writev of write_queue_here()

  void run();
  bool write_queue_here(std::unique_lock<std::mutex>& lock);
  std::size_t write_nowait(const std::vector<frame>& lines);
  bool write_line(const std::string& text);
  static frame rest_of(const std::string& text, std::size_t done);

  int fd_;
  std::size_t max_queue_;
  std::mutex mtx_;
  std::condition_variable cv_;
  std::condition_variable closed_cv_;
  std::deque<frame> queue_;
  bool closing_ = false;
  bool broken_ = false;
  bool writing_ = false;           // a sender or the thread is writing: others queue
  bool held_ = false;              // between hold() and release(): everything queues
  std::atomic<bool> nowait_{true}; // the descriptor takes RWF_NOWAIT writes
  std::vector<frame> batch_;       // what write_queue_here() writes (only while writing_)
  std::thread thread_;
};

} // namespace cafmcp::transport

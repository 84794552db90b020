#pragma once
// What the stdio reader (stdio.cpp) is handed to run between reads, from
// its own thread (the actors it runs: loop_unit's drains) and from any
// other (a handler thread's answer, through the reader's loop_door; the
// cluster's announcements). An answer so handed over wakes the session on
// the reader, which writes it there: through CAF's scheduler it woke an
// actor thread to do that, a second wake-up a call behind the handler
// thread's own. The reader, which polls stdin a while before it sleeps,
// mostly finds the job while polling; asleep, it is woken through an
// eventfd it sleeps on beside stdin.
//
// Cost model: a post from the reader's own thread is a push; from another,
// a lock and a push, and a write(2) to the eventfd only while the reader
// sleeps or is about to. The reader pays an atomic load per look while it
// polls, a lock per batch from other threads, and a poll(2) before a read(2)
// only while it awaits an answer (server::posts_awaited; stdio.cpp).
#include <atomic>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace cafmcp::transport {

class reader_inbox {
public:
  /// Made on the reader's thread.
  reader_inbox();
  ~reader_inbox();
  reader_inbox(const reader_inbox&) = delete;
  reader_inbox& operator=(const reader_inbox&) = delete;

  /// From any thread: `job` runs on the reader, after what the same thread
  /// posted before it.
  void post(std::function<void()> job);
  /// Whether other threads may post: an eventfd to wake the reader was made
  /// (without one, only the reader's own thread may).
  bool wakeable() const { return wake_fd_ >= 0; }
  /// Something was posted from another thread and has not run yet.
  bool pending() const { return pending_.load(); }
  /// On the reader: runs what was posted, until nothing is (a job may post).
  void run();
  /// On the reader: drops what was posted, unrun (its destructors run).
  void drop();
  /// On the reader: sleeps until `fd` has something to read (or is at its
  /// end, or failed) or a job is posted. True when `fd` is ready.
  bool wait(int fd);

private:
  void take();      // jobs_ into taken_
  bool take_next(); // the next batch into taken_: false if none

  std::mutex mtx_;
  std::vector<std::function<void()>> jobs_;  // posted, under mtx_
  std::vector<std::function<void()>> own_;   // posted by the reader itself (no lock)
  std::vector<std::function<void()>> taken_; // being run
  std::thread::id reader_;
  std::atomic<bool> pending_{false};
  std::atomic<bool> sleeping_{false}; // in wait(), or about to be
  int wake_fd_;                       // eventfd; -1 if none could be made
};

} // namespace cafmcp::transport

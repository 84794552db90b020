#pragma once
// An event loop as a transport runs one, for tests of what runs where: a
// session's transport that records the thread each frame was handed over
// on, a session set up to record, and a loop thread that offers itself to
// the server (run_actors_here). Every wait has a deadline.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cafmcp/server.hpp"
#include "cafmcp/transport.hpp"

#include "support.hpp"

namespace cafmcp::test {

// True once `pred` holds (polled, up to 10 s).
template <class P>
bool becomes(P pred) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

// What a session's transport received (frames, in order), and on which
// thread each was handed to it.
class recording_outbound final : public outbound {
public:
  bool send(frame message, const routing&) override {
    std::lock_guard lock(mtx_);
    frames_.emplace_back(std::this_thread::get_id(), *message);
    return true;
  }
  void close() override {}
  bool answered(const std::string& id_text) {
    std::string needle = "\"id\":";
    needle += id_text;
    return !sent_on(needle).empty();
  }
  /// The threads the frames containing `needle` were sent on, in order.
  std::vector<std::thread::id> sent_on(const std::string& needle) {
    std::vector<std::thread::id> threads;
    std::lock_guard lock(mtx_);
    for (auto& [thread, f] : frames_)
      if (f.find(needle) != std::string::npos)
        threads.push_back(thread);
    return threads;
  }

private:
  std::mutex mtx_;
  std::vector<std::pair<std::thread::id, std::string>> frames_;
};

// A session on `srv`, initialized and operating (the notifier counts it:
// it hears every change from then on), that records what it is sent.
inline std::shared_ptr<recording_outbound> recorded_session(server& srv, std::shared_ptr<connection>& conn) {
  const auto operating_before = srv.stats().sessions;
  auto out = std::make_shared<recording_outbound>();
  conn = srv.connect(out);
  conn->receive(std::string(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":)"
                            R"("2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})"));
  EXPECT_TRUE(becomes([&] { return out->answered("1"); }));
  conn->receive(std::string(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"));
  EXPECT_TRUE(becomes([&] { return srv.stats().sessions == operating_before + 1; }));
  return out;
}

// An event loop as a transport runs one, on a thread of its own: it runs
// what any thread posts to it, in turn, and offers itself to the server
// (run_actors_here, post_from::any_thread). `runs` false: it takes jobs and
// never runs them (a loop that stops before it gets to them); they are
// destroyed, unrun, with the loop.
class test_loop {
public:
  test_loop(server& srv, bool runs) : runs_(runs), thread_([this, &srv] { run(srv); }) {
    std::unique_lock lock(mtx_);
    changed_.wait(lock, [this] { return offered_; });
  }
  ~test_loop() {
    {
      std::lock_guard lock(mtx_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
    jobs_.clear();
  }
  std::thread::id id() const { return thread_.get_id(); }
  /// Runs `job` on the loop's thread, in turn (as Asio's post).
  void post(std::function<void()> job) {
    {
      std::lock_guard lock(mtx_);
      jobs_.push_back(std::move(job));
    }
    changed_.notify_all();
  }
  /// Waits (10 s at most) until a job is waiting: true if one is.
  bool holds_a_job() {
    std::unique_lock lock(mtx_);
    return changed_.wait_for(lock, std::chrono::seconds(10), [this] { return !jobs_.empty(); });
  }

private:
  void run(server& srv) {
    auto here = srv.run_actors_here([this](std::function<void()> job) { post(std::move(job)); },
                                    server::post_from::any_thread);
    std::unique_lock lock(mtx_);
    offered_ = true;
    changed_.notify_all();
    for (;;) {
      changed_.wait(lock, [this] { return stop_ || (runs_ && !jobs_.empty()); });
      if (stop_)
        break;
      auto job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();
      lock.lock();
    }
    lock.unlock();
    here.reset(); // on this thread, as a transport's loop does
  }

  const bool runs_;
  std::mutex mtx_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> jobs_;
  bool offered_ = false;
  bool stop_ = false;
  std::thread thread_;
};

} // namespace cafmcp::test

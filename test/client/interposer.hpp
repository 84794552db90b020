#pragma once
// A client_transport between the client under test and a real one, under
// the test's control: it can hold the server's notifications back (to
// release a burst at once) and answer the next N requests of a method with
// an error instead of sending them (a failure the client must survive).
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>

#include "cafmcp/json.hpp"

#include "relay_transport.hpp"

namespace cafmcp::test {

class interposer : public relay_transport {
public:
  using relay_transport::relay_transport;
  ~interposer() override { stop_relay(); }

  bool send(std::string text) override {
    auto msg = json::parse(text);
    {
      std::lock_guard<std::mutex> g(mtx_);
      ++sent_[msg.value("method", "")];
      if (msg.contains("id") && msg.contains("method"))
        last_id_[msg.value("method", "")] = msg["id"];
      auto it = msg.contains("id") ? failing_.find(msg.value("method", "")) : failing_.end();
      if (it != failing_.end() && it->second > 0) {
        --it->second;
        json err = {{"jsonrpc", "2.0"},
                    {"id", msg["id"]},
                    {"error", {{"code", -32603}, {"message", "injected failure"}}}};
        up_.on_message(err.dump());
        return true;
      }
    }
    return real_->send(std::move(text));
  }

  /// Notifications from now on wait until release().
  void hold() {
    std::lock_guard<std::mutex> g(mtx_);
    holding_ = true;
  }
  /// Waits until `n` held notifications have `method`.
  bool wait_held(const std::string& method, std::size_t n, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> g(mtx_);
    return cv_.wait_for(g, timeout, [&] {
      std::size_t c = 0;
      for (auto& m : held_)
        c += json::parse(m).value("method", "") == method;
      return c >= n;
    });
  }
  /// Delivers everything held, in order, in one go; then passes through.
  void release() {
    std::lock_guard<std::mutex> g(mtx_);
    holding_ = false;
    for (auto& m : held_)
      up_.on_message(std::move(m));
    held_.clear();
  }
  /// How many messages with `method` the client handed to this transport.
  int sent(const std::string& method) {
    std::lock_guard<std::mutex> g(mtx_);
    auto it = sent_.find(method);
    return it == sent_.end() ? 0 : it->second;
  }
  /// Waits until the server answered the last request of `method` sent
  /// (whatever the client made of the answer).
  bool wait_answered(const std::string& method, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> g(mtx_);
    return cv_.wait_for(g, timeout, [&] {
      auto it = last_id_.find(method);
      return it != last_id_.end() && answered_.count(it->second.dump()) > 0;
    });
  }
  /// The next `n` requests of `method` fail without reaching the server.
  void fail_next(const std::string& method, int n) {
    std::lock_guard<std::mutex> g(mtx_);
    failing_[method] = n;
  }

private:
  void inbound(std::string text) override {
    std::lock_guard<std::mutex> g(mtx_);
    if (auto msg = json::parse(text, nullptr, false);
        msg.is_object() && msg.contains("id") && !msg.contains("method")) {
      answered_.insert(msg["id"].dump());
      cv_.notify_all();
    }
    if (holding_) {
      auto msg = json::parse(text, nullptr, false);
      if (msg.is_object() && msg.contains("method") && !msg.contains("id")) {
        held_.push_back(std::move(text));
        cv_.notify_all();
        return;
      }
    }
    up_.on_message(std::move(text));
  }

  std::mutex mtx_;
  std::condition_variable cv_;
  bool holding_ = false;
  std::deque<std::string> held_;
  std::map<std::string, int> failing_;
  std::map<std::string, int> sent_;     // by method ("" for responses)
  std::map<std::string, json> last_id_; // of the last request sent, by method
  std::set<std::string> answered_;      // ids (as JSON text) of responses received
};

} // namespace cafmcp::test

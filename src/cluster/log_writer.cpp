#include "cluster/log_writer.hpp"

#include <vector>

namespace cafmcp::cluster {

namespace {
const std::string part = "log writer";
}

log_writer::log_writer(log_connector connect, limits l, encoder resync, link_health& health)
  : connect_(std::move(connect)), limits_(l), resync_(std::move(resync)), health_(health),
    thread_([this] { run(); }) {}

log_writer::~log_writer() {
  {
    std::lock_guard<std::mutex> g(mtx_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

std::uint64_t log_writer::append(const encoder& encode, std::shared_ptr<void> token) {
  std::vector<std::shared_ptr<void>> dropped; // released outside the lock
  std::uint64_t seq;
  {
    std::lock_guard<std::mutex> g(mtx_);
    if (queue_.size() >= limits_.outbox) {
      for (auto& p : queue_)
        if (auto it = tokens_.find(p.seq); it != tokens_.end()) {
          dropped.push_back(std::move(it->second));
          tokens_.erase(it);
        }
      queue_.clear();
      ++overflows_;
      auto rs = ++next_seq_;
      queue_.push_back({rs, resync_(rs)});
    }
    seq = ++next_seq_;
    queue_.push_back({seq, encode(seq)});
    if (token)
      tokens_.emplace(seq, std::move(token));
  }
  wake_.notify_one();
  return seq;
}

std::shared_ptr<void> log_writer::taken(std::uint64_t seq) {
  std::lock_guard<std::mutex> g(mtx_);
  auto it = tokens_.find(seq);
  if (it == tokens_.end())
    return nullptr;
  auto t = std::move(it->second);
  tokens_.erase(it);
  return t;
}

std::size_t log_writer::waiting() const {
  std::lock_guard<std::mutex> g(mtx_);
  return queue_.size();
}

std::size_t log_writer::overflows() const {
  std::lock_guard<std::mutex> g(mtx_);
  return overflows_;
}

bool log_writer::pause(std::chrono::milliseconds d) {
  std::unique_lock<std::mutex> g(mtx_);
  return !wake_.wait_for(g, d, [this] { return stop_; });
}

void log_writer::run() {
  std::unique_ptr<log_backend> conn;
  std::vector<std::string> batch;
  bool healthy = false; // as last reported
  auto trouble = [&](const std::string& why) {
    healthy = false;
    health_.report(part, why + " (" + std::to_string(waiting()) + " changes waiting)");
    return pause(limits_.retry);
  };
  for (;;) {
    std::uint64_t first = 0;
    {
      std::unique_lock<std::mutex> g(mtx_);
      wake_.wait(g, [this] { return stop_ || !queue_.empty(); });
      if (stop_)
        return;
      // Copies: append() may drop the queue (overflow) while this batch is
      // on its way, and the entries stay queued until the log has them.
      batch.clear();
      first = queue_.front().seq;
      for (std::size_t i = 0; i < queue_.size() && batch.size() < limits_.batch; ++i)
        batch.push_back(queue_[i].body);
    }
    if (!conn) {
      try {
        conn = connect_();
      } catch (const std::exception& e) {
        if (!trouble(e.what()))
          return;
        continue;
      }
    }
    auto sent = conn->append(batch);
    {
      std::lock_guard<std::mutex> g(mtx_);
      // Entries are numbered in queue order: those the log acknowledged are
      // the front ones below first + sent (a resync put in meanwhile has a
      // higher number and stays).
      while (!queue_.empty() && queue_.front().seq < first + sent)
        queue_.pop_front();
    }
    if (sent < batch.size()) {
      auto why = "log unreachable: " + conn->error();
      conn.reset();
      if (!trouble(why))
        return;
    } else if (!healthy) {
      healthy = true;
      health_.report(part, std::nullopt);
    }
  }
}

} // namespace cafmcp::cluster

#include "cluster/memory_log.hpp"

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>

namespace cafmcp::cluster {
namespace {

struct shared_log {
  std::mutex mtx;
  std::condition_variable grown;
  std::deque<log_entry> entries;
  std::uint64_t last = 0;
};

std::shared_ptr<shared_log> log_named(const std::string& name) {
  static std::mutex mtx;
  static std::map<std::string, std::weak_ptr<shared_log>> logs;
  std::lock_guard<std::mutex> g(mtx);
  auto& slot = logs[name];
  auto log = slot.lock();
  if (!log) {
    log = std::make_shared<shared_log>();
    slot = log;
  }
  return log;
}

class memory_log final : public log_backend {
public:
  memory_log(std::shared_ptr<shared_log> log, std::size_t max) : log_(std::move(log)), max_(max) {}

  std::size_t append(std::span<const std::string> bodies) override {
    {
      std::lock_guard<std::mutex> g(log_->mtx);
      for (auto& b : bodies) {
        log_->entries.push_back({log_position{0, ++log_->last}, b});
        if (log_->entries.size() > max_)
          log_->entries.pop_front();
      }
    }
    log_->grown.notify_all();
    return bodies.size();
  }

  std::optional<std::vector<log_entry>> read(const log_position& after, std::size_t max,
                                             std::chrono::milliseconds wait) override {
    std::unique_lock<std::mutex> g(log_->mtx);
    auto ready = [&] { return interrupted_ || log_->last > after.seq; };
    log_->grown.wait_for(g, wait, ready);
    if (interrupted_)
      return std::nullopt;
    std::vector<log_entry> out;
    for (auto& e : log_->entries)
      if (e.position > after && out.size() < max)
        out.push_back(e);
    return out;
  }

  std::optional<log_position> newest() override {
    std::lock_guard<std::mutex> g(log_->mtx);
    return log_position{0, log_->last};
  }

  void interrupt() override {
    {
      std::lock_guard<std::mutex> g(log_->mtx);
      interrupted_ = true;
    }
    log_->grown.notify_all();
  }

  std::string error() const override { return interrupted_ ? "interrupted" : ""; }

private:
  std::shared_ptr<shared_log> log_;
  std::size_t max_;
  std::atomic<bool> interrupted_{false}; // set under log_->mtx (the waiters' predicate)
};

} // namespace

std::unique_ptr<log_backend> open_memory_log(const std::string& name, std::size_t max_entries) {
  return std::make_unique<memory_log>(log_named(name), max_entries);
}

} // namespace cafmcp::cluster

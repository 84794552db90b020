#include "cluster/log_reader.hpp"

#include <algorithm>
#include <optional>

namespace cafmcp::cluster {

namespace {
const std::string part = "log reader";
}

log_reader::log_reader(log_connector connect, limits l, handler h, link_health& health,
                       std::optional<log_position> history_end, caught_up c)
  : connect_(std::move(connect)), limits_(l), handler_(std::move(h)), caught_up_(std::move(c)),
    health_(health), history_end_(history_end), thread_([this] { run(); }) {}

log_reader::~log_reader() {
  {
    std::lock_guard<std::mutex> g(mtx_);
    stop_ = true;
    if (conn_)
      conn_->interrupt();
  }
  wake_.notify_all();
  thread_.join();
}

bool log_reader::pause(std::chrono::milliseconds d) {
  std::unique_lock<std::mutex> g(mtx_);
  return !wake_.wait_for(g, d, [this] { return stop_; });
}

std::shared_ptr<log_backend> log_reader::reconnect() {
  for (;;) {
    {
      std::lock_guard<std::mutex> g(mtx_);
      conn_.reset();
      if (stop_)
        return nullptr;
    }
    try {
      std::shared_ptr<log_backend> c = connect_();
      std::lock_guard<std::mutex> g(mtx_);
      if (stop_)
        return nullptr;
      conn_ = c;
      return c;
    } catch (const std::exception& e) {
      health_.report(part, e.what());
      if (!pause(limits_.retry))
        return nullptr;
    }
  }
}

void log_reader::run() {
  log_position at{}; // the last entry handed on
  auto& history_end = history_end_;
  std::shared_ptr<log_backend> conn;
  bool healthy = false;
  std::vector<log_entry> history;
  for (;;) {
    if (!conn && !(conn = reconnect()))
      return;
    if (!history_end && !(history_end = conn->newest())) {
      health_.report(part, "log unreachable: " + conn->error());
      conn.reset();
      if (!pause(limits_.retry))
        return;
      continue;
    }
    auto asked = std::chrono::steady_clock::now();
    auto got = conn->read(at, limits_.batch, limits_.wait);
    if (!got) {
      health_.report(part, "log unreachable: " + conn->error());
      healthy = false;
      conn.reset();
      if (!pause(limits_.retry))
        return;
      continue;
    }
    if (!healthy) {
      healthy = true;
      health_.report(part, std::nullopt);
    }
    bool short_read = got->size() < limits_.batch;
    if (got->empty()) {
      if (caught_up_)
        caught_up_(asked);
      continue;
    }
    at = got->back().position;
    // The entries up to history_end are history, the rest live: one call each.
    auto live =
      std::find_if(got->begin(), got->end(), [&](const log_entry& e) { return e.position > *history_end; });
    if (live != got->begin()) {
      history.assign(std::make_move_iterator(got->begin()), std::make_move_iterator(live));
      handler_(history, true);
    }
    if (live != got->end()) {
      if (live != got->begin())
        got->erase(got->begin(), live);
      handler_(*got, false);
    }
    if (short_read && caught_up_)
      caught_up_(asked);
  }
}

} // namespace cafmcp::cluster

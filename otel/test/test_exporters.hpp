#pragma once
// Exporters for tests: one that keeps what it gets, one that hangs until
// released (a collector that stopped answering).
#include <atomic>
#include <condition_variable>
#include <future>
#include <mutex>
#include <vector>

#include "cafmcp/otel/tracer.hpp"

namespace cafmcp::otel::testing {

struct collecting_exporter : span_exporter {
  std::mutex mtx;
  std::vector<span_data> spans;
  std::condition_variable grew;
  std::vector<deadline> deadlines; // one per export_until call
  bool export_spans(const std::vector<span_data>& batch) override {
    std::lock_guard<std::mutex> g(mtx);
    spans.insert(spans.end(), batch.begin(), batch.end());
    grew.notify_all();
    return true;
  }
  /// Bounded wait until `n` spans arrived; true when they did.
  bool wait_for(std::size_t n, std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mtx);
    return grew.wait_for(lock, timeout, [&] { return spans.size() >= n; });
  }
  bool export_until(const std::vector<span_data>& batch, deadline until) override {
    {
      std::lock_guard<std::mutex> g(mtx);
      deadlines.push_back(until);
    }
    return export_spans(batch);
  }
  std::vector<span_data> snapshot() {
    std::lock_guard<std::mutex> g(mtx);
    return spans;
  }
};

struct stuck_exporter : span_exporter {
  std::shared_future<void> release;
  std::atomic<int> calls{0};
  std::atomic<std::size_t> spans{0};
  std::promise<void> first_call;
  explicit stuck_exporter(std::shared_future<void> r) : release(std::move(r)) {}
  bool export_spans(const std::vector<span_data>& batch) override {
    if (calls++ == 0)
      first_call.set_value();
    release.wait();
    spans += batch.size();
    return true;
  }
};

inline std::shared_ptr<tracer_provider> provider_with(std::shared_ptr<span_processor> p,
                                                      std::shared_ptr<sampler> s = always_on()) {
  return std::make_shared<tracer_provider>(resource::with_service("test"), std::move(s), std::move(p));
}

} // namespace cafmcp::otel::testing

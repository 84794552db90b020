#pragma once
// Where finished spans go, and the processors that hand them over.
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cafmcp/otel/span_data.hpp"

namespace cafmcp::otel {

/// The `service.name` and other attributes every span of a process shares.
struct resource {
  otel::attributes attributes;
  static resource with_service(std::string service_name);
};

class span_exporter {
public:
  virtual ~span_exporter() = default;
  /// Called from one thread at a time (the processor's). True on success.
  virtual bool export_spans(const std::vector<span_data>& spans) = 0;
  virtual void shutdown() {}
};

class span_processor {
public:
  virtual ~span_processor() = default;
  /// Takes the finished span (a pointer, so queues move 8 bytes, not a span).
  virtual void on_end(std::unique_ptr<span_data> span) = 0;
  virtual void on_end(std::unique_ptr<span_group> group) = 0;
  /// Exports everything accepted so far; false when the deadline passed.
  virtual bool force_flush(std::chrono::milliseconds timeout = std::chrono::seconds(30)) = 0;
  virtual void shutdown() = 0;
};

/// Exports each span as it ends, on the caller's thread (tests, debugging).
class simple_span_processor : public span_processor {
public:
  explicit simple_span_processor(std::shared_ptr<span_exporter> e) : exporter_(std::move(e)) {}
  void on_end(std::unique_ptr<span_data> span) override;
  void on_end(std::unique_ptr<span_group> group) override;
  bool force_flush(std::chrono::milliseconds) override { return true; }
  void shutdown() override { exporter_->shutdown(); }

private:
  std::mutex mtx_;
  std::shared_ptr<span_exporter> exporter_;
};

struct batch_options {
  std::size_t max_queue_size = 2048;
  std::chrono::milliseconds schedule_delay{5000};
  std::size_t max_export_batch_size = 512;
  std::chrono::milliseconds export_timeout{30000};
};

/// Queues spans and exports them in batches on a thread of its own. on_end
/// never blocks: a full queue drops the span and counts it.
class batch_span_processor : public span_processor {
public:
  batch_span_processor(std::shared_ptr<span_exporter> e, batch_options o = {});
  ~batch_span_processor() override;
  void on_end(std::unique_ptr<span_data> span) override;
  void on_end(std::unique_ptr<span_group> group) override;
  bool force_flush(std::chrono::milliseconds timeout = std::chrono::seconds(30)) override;
  void shutdown() override;
  std::size_t dropped() const;
  std::size_t exported() const;

private:
  void run();
  struct item {
    std::unique_ptr<span_data> one;
    std::unique_ptr<span_group> group;
  };
  bool admit(std::size_t spans); // under the lock
  std::shared_ptr<span_exporter> exporter_;
  batch_options opts_;
  mutable std::mutex mtx_;
  std::condition_variable wake_, flushed_;
  std::vector<item> queue_;
  std::size_t queued_spans_ = 0;
  std::size_t dropped_ = 0, exported_ = 0;
  std::uint64_t flush_requests_ = 0, flushes_done_ = 0;
  bool stopping_ = false;
  std::thread worker_;
};

} // namespace cafmcp::otel

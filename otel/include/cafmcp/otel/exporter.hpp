#pragma once
// Where finished spans go (exporters), and the processors that hand them
// over: synchronously, or batched on a thread of their own.
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "cafmcp/otel/resource.hpp"
#include "cafmcp/otel/span_data.hpp"

namespace cafmcp::otel {

using deadline = std::chrono::steady_clock::time_point;

/// What the batch processor hands an exporter: spans, and groups of sibling
/// spans as they were recorded (a broadcast's sends). At most the batch
/// size in spans, except that a group larger than that travels whole.
struct span_batch {
  std::vector<span_data> spans;
  std::vector<std::unique_ptr<span_group>> groups;
  /// Spans in all, group members included.
  std::size_t size() const;
  bool empty() const { return spans.empty() && groups.empty(); }
  void clear();
  /// Every group expanded into spans, after the single spans.
  std::vector<span_data> expanded() &&;
};

class span_exporter {
public:
  virtual ~span_exporter() = default;
  /// Called from one thread at a time (the processor's). True on success.
  virtual bool export_spans(const std::vector<span_data>& spans) = 0;
  /// The same, giving up at `until` (the batch processor's export timeout).
  /// Exporters that can stop early (retries, network waits) override this.
  virtual bool export_until(const std::vector<span_data>& spans, deadline until) {
    return export_spans(spans);
  }
  /// The batch processor's call. By default the groups are expanded into
  /// spans for export_until; an exporter that can write a group's common
  /// part once (or only counts) overrides this and skips the copies.
  virtual bool export_batch(span_batch& batch, deadline until) {
    return export_until(std::move(batch).expanded(), until);
  }
  /// May run while an export that overran a shutdown deadline is still in
  /// progress on another thread: it should cut that export short.
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
  /// Exports what is left and stops taking spans; false when the deadline
  /// passed first (spans still queued then are lost).
  virtual bool shutdown(std::chrono::milliseconds timeout = std::chrono::seconds(30)) = 0;
};

/// Exports each span as it ends, on the caller's thread (tests, debugging:
/// never on a hot path, since the caller waits for the exporter).
class simple_span_processor : public span_processor {
public:
  explicit simple_span_processor(std::shared_ptr<span_exporter> e) : exporter_(std::move(e)) {}
  void on_end(std::unique_ptr<span_data> span) override;
  void on_end(std::unique_ptr<span_group> group) override;
  bool force_flush(std::chrono::milliseconds) override { return true; }
  bool shutdown(std::chrono::milliseconds) override;

private:
  std::mutex mtx_;
  std::shared_ptr<span_exporter> exporter_;
  bool stopped_ = false;
};

/// The SDK's BatchSpanProcessor settings (OTEL_BSP_*), with its defaults.
struct batch_options {
  std::size_t max_queue_size = 2048;
  std::chrono::milliseconds schedule_delay{5000};
  std::size_t max_export_batch_size = 512; // clamped to max_queue_size
  std::chrono::milliseconds export_timeout{30000};
};

/// Queues spans and exports them in batches on a thread of its own: when
/// the schedule delay passes, as soon as a full batch is queued, and on
/// force_flush/shutdown. on_end never waits for the exporter: a full queue
/// drops the span and counts it.
class batch_span_processor : public span_processor {
public:
  batch_span_processor(std::shared_ptr<span_exporter> e, batch_options o = {});
  /// shutdown() with its default deadline.
  ~batch_span_processor() override;
  void on_end(std::unique_ptr<span_data> span) override;
  void on_end(std::unique_ptr<span_group> group) override;
  bool force_flush(std::chrono::milliseconds timeout = std::chrono::seconds(30)) override;
  /// When the exporter hangs past the deadline, the worker is left to
  /// finish on its own (it owns what it uses) instead of hanging the caller.
  bool shutdown(std::chrono::milliseconds timeout = std::chrono::seconds(30)) override;
  /// Spans lost: queue full, ended after shutdown, or their export failed.
  std::size_t dropped() const;
  std::size_t exported() const;
  const batch_options& options() const;

private:
  struct state; // shared with the worker thread, so it can outlive us
  std::shared_ptr<state> state_;
  std::thread worker_;
};

} // namespace cafmcp::otel

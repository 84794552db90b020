#include "cafmcp/otel/exporter.hpp"

namespace cafmcp::otel {

resource resource::with_service(std::string service_name) {
  return resource{{{"service.name", std::move(service_name)},
                   {"telemetry.sdk.name", std::string("cafmcp-otel")},
                   {"telemetry.sdk.language", std::string("cpp")},
                   {"telemetry.sdk.version", std::string("0.1.0")}}};
}

void simple_span_processor::on_end(span_data span) {
  std::lock_guard<std::mutex> g(mtx_);
  exporter_->export_spans({std::move(span)});
}

batch_span_processor::batch_span_processor(std::shared_ptr<span_exporter> e, batch_options o)
  : exporter_(std::move(e)), opts_(o) {
  if (opts_.max_export_batch_size == 0 || opts_.max_export_batch_size > opts_.max_queue_size)
    opts_.max_export_batch_size = opts_.max_queue_size;
  worker_ = std::thread([this] { run(); });
}

batch_span_processor::~batch_span_processor() { shutdown(); }

void batch_span_processor::on_end(span_data span) {
  std::unique_lock<std::mutex> lock(mtx_);
  if (stopping_ || queue_.size() >= opts_.max_queue_size) {
    ++dropped_; // never make the instrumented code wait
    return;
  }
  queue_.push_back(std::move(span));
  if (queue_.size() >= opts_.max_export_batch_size)
    wake_.notify_one(); // a full batch goes now, not at the next tick
}

bool batch_span_processor::force_flush(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mtx_);
  if (!worker_.joinable())
    return queue_.empty();
  auto ticket = ++flush_requests_;
  wake_.notify_one();
  return flushed_.wait_for(lock, timeout, [&] { return flushes_done_ >= ticket; });
}

void batch_span_processor::run() {
  std::unique_lock<std::mutex> lock(mtx_);
  for (;;) {
    wake_.wait_for(lock, opts_.schedule_delay, [&] {
      return stopping_ || flush_requests_ > flushes_done_
             || queue_.size() >= opts_.max_export_batch_size;
    });
    auto flush_goal = flush_requests_;
    // Export everything queued now (in batches) when flushing or stopping;
    // one batch otherwise.
    do {
      if (queue_.empty())
        break;
      std::vector<span_data> batch;
      auto n = std::min(queue_.size(), opts_.max_export_batch_size);
      batch.reserve(n);
      for (std::size_t i = 0; i < n; ++i) {
        batch.push_back(std::move(queue_.front()));
        queue_.pop_front();
      }
      lock.unlock();
      bool ok = exporter_->export_spans(batch);
      lock.lock();
      if (ok)
        exported_ += batch.size();
      else
        dropped_ += batch.size();
    } while (stopping_ || flush_goal > flushes_done_);
    flushes_done_ = flush_goal;
    flushed_.notify_all();
    if (stopping_ && queue_.empty())
      return;
  }
}

void batch_span_processor::shutdown() {
  {
    std::lock_guard<std::mutex> g(mtx_);
    if (stopping_)
      return;
    stopping_ = true;
    wake_.notify_one();
  }
  if (worker_.joinable())
    worker_.join();
  exporter_->shutdown();
}

std::size_t batch_span_processor::dropped() const {
  std::lock_guard<std::mutex> g(mtx_);
  return dropped_;
}

std::size_t batch_span_processor::exported() const {
  std::lock_guard<std::mutex> g(mtx_);
  return exported_;
}

} // namespace cafmcp::otel

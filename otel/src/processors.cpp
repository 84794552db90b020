#include "cafmcp/otel/exporter.hpp"

namespace cafmcp::otel {

resource resource::with_service(std::string service_name) {
  return resource{{{"service.name", std::move(service_name)},
                   {"telemetry.sdk.name", std::string("cafmcp-otel")},
                   {"telemetry.sdk.language", std::string("cpp")},
                   {"telemetry.sdk.version", std::string("0.1.0")}}};
}

void simple_span_processor::on_end(std::unique_ptr<span_data> span) {
  std::lock_guard<std::mutex> g(mtx_);
  exporter_->export_spans({std::move(*span)});
}

void simple_span_processor::on_end(std::unique_ptr<span_group> group) {
  std::lock_guard<std::mutex> g(mtx_);
  exporter_->export_spans(group->expand());
}

std::vector<span_data> span_group::expand() const {
  std::vector<span_data> out;
  out.reserve(members.size());
  for (auto& m : members) {
    span_data s = common;
    s.context.span = m.id;
    s.start_unix_nano = m.start_unix_nano;
    s.end_unix_nano = m.end_unix_nano;
    s.attributes.emplace_back(member_key, m.value);
    out.push_back(std::move(s));
  }
  return out;
}

batch_span_processor::batch_span_processor(std::shared_ptr<span_exporter> e, batch_options o)
  : exporter_(std::move(e)), opts_(o) {
  if (opts_.max_export_batch_size == 0 || opts_.max_export_batch_size > opts_.max_queue_size)
    opts_.max_export_batch_size = opts_.max_queue_size;
  worker_ = std::thread([this] { run(); });
}

batch_span_processor::~batch_span_processor() { shutdown(); }

bool batch_span_processor::admit(std::size_t spans) {
  if (stopping_ || queued_spans_ + spans > opts_.max_queue_size) {
    dropped_ += spans; // never make the instrumented code wait
    return false;
  }
  // Wake the exporter once per full batch (a wake-up per span costs the
  // instrumented thread a futex call each time).
  bool crossing = queued_spans_ < opts_.max_export_batch_size
                  && queued_spans_ + spans >= opts_.max_export_batch_size;
  queued_spans_ += spans;
  if (crossing)
    wake_.notify_one();
  return true;
}

void batch_span_processor::on_end(std::unique_ptr<span_data> span) {
  std::lock_guard<std::mutex> lock(mtx_);
  if (admit(1))
    queue_.push_back({std::move(span), nullptr});
}

void batch_span_processor::on_end(std::unique_ptr<span_group> group) {
  std::lock_guard<std::mutex> lock(mtx_);
  if (!group->members.empty() && admit(group->members.size()))
    queue_.push_back({nullptr, std::move(group)});
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
  std::vector<item> taken;
  std::vector<span_data> batch;
  for (;;) {
    wake_.wait_for(lock, opts_.schedule_delay, [&] {
      return stopping_ || flush_requests_ > flushes_done_
             || queued_spans_ >= opts_.max_export_batch_size;
    });
    auto flush_goal = flush_requests_;
    // Take everything queued in O(1) and export it with the lock released,
    // so on_end callers never wait for the exporter or for copying.
    taken.swap(queue_);
    queued_spans_ = 0;
    lock.unlock();
    std::size_t ok = 0, failed = 0;
    auto send = [&] {
      if (!batch.empty())
        (exporter_->export_spans(batch) ? ok : failed) += batch.size();
      batch.clear();
    };
    for (auto& it : taken) {
      if (it.one)
        batch.push_back(std::move(*it.one));
      else
        for (auto& s : it.group->expand())
          batch.push_back(std::move(s));
      if (batch.size() >= opts_.max_export_batch_size)
        send();
    }
    send();
    taken.clear();
    lock.lock();
    exported_ += ok;
    dropped_ += failed;
    if (flush_goal > flushes_done_ && queue_.empty()) {
      flushes_done_ = flush_goal;
      flushed_.notify_all();
    } else if (flush_goal > flushes_done_) {
      continue; // spans arrived meanwhile: the flush covers them too
    }
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

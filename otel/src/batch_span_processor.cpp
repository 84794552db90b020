#include <condition_variable>
#include <cstdio>

#include "cafmcp/otel/exporter.hpp"

namespace cafmcp::otel {

// Everything the worker touches lives here, owned jointly by the processor
// and the worker, so a worker stuck in a hung exporter can be left behind
// at a shutdown deadline without dangling.
struct batch_span_processor::state {
  state(std::shared_ptr<span_exporter> e, batch_options o) : exporter(std::move(e)), opts(o) {}

  struct item {
    std::unique_ptr<span_data> one;
    std::unique_ptr<span_group> group;
  };

  std::shared_ptr<span_exporter> exporter;
  batch_options opts;
  std::mutex mtx;
  std::condition_variable wake, progress;
  std::vector<item> queue;
  std::size_t queued_spans = 0;
  std::size_t dropped = 0, exported = 0;
  std::uint64_t flush_requests = 0, flushes_done = 0;
  bool stopping = false, worker_done = false, shutdown_started = false;

  // Under mtx. Never waits: a full queue loses the span, counted.
  bool admit(std::size_t spans) {
    if (stopping || queued_spans + spans > opts.max_queue_size) {
      if (dropped == 0 && !stopping) // once: the total follows at shutdown
        std::fprintf(stderr,
                     "cafmcp-otel: span queue full (%zu spans): dropping spans until the exporter catches "
                     "up; raise OTEL_BSP_MAX_QUEUE_SIZE to keep them\n",
                     opts.max_queue_size);
      dropped += spans;
      return false;
    }
    // One wake-up per full batch: a notify per span would cost every
    // instrumented thread a futex call.
    bool crossing =
      queued_spans < opts.max_export_batch_size && queued_spans + spans >= opts.max_export_batch_size;
    queued_spans += spans;
    if (crossing)
      wake.notify_one();
    return true;
  }

  void run();
};

void batch_span_processor::state::run() {
  std::unique_lock<std::mutex> lock(mtx);
  std::vector<item> taken;
  span_batch batch;
  std::size_t in_batch = 0;
  for (;;) {
    wake.wait_for(lock, opts.schedule_delay, [&] {
      return stopping || flush_requests > flushes_done || queued_spans >= opts.max_export_batch_size;
    });
    auto flush_goal = flush_requests;
    // Take everything queued in O(1) and export with the lock released, so
    // on_end callers never wait for the exporter, nor for copying.
    taken.swap(queue);
    queued_spans = 0;
    lock.unlock();
    std::size_t ok = 0, failed = 0;
    auto send = [&] {
      if (batch.empty())
        return;
      auto until = std::chrono::steady_clock::now() + opts.export_timeout;
      (exporter->export_batch(batch, until) ? ok : failed) += in_batch;
      batch.clear();
      in_batch = 0;
    };
    // Groups go whole (expanding them is the exporter's choice); a batch
    // is sent once it holds a full batch's worth of spans.
    for (auto& it : taken) {
      auto n = it.one ? 1 : it.group->members.size();
      if (in_batch > 0 && in_batch + n > opts.max_export_batch_size)
        send();
      if (it.one)
        batch.spans.push_back(std::move(*it.one));
      else
        batch.groups.push_back(std::move(it.group));
      in_batch += n;
      if (in_batch >= opts.max_export_batch_size)
        send();
    }
    send();
    taken.clear();
    lock.lock();
    exported += ok;
    dropped += failed;
    if (flush_goal > flushes_done && !queue.empty())
      continue; // spans arrived meanwhile: the flush covers them too
    if (flush_goal > flushes_done) {
      flushes_done = flush_goal;
      progress.notify_all();
    }
    if (stopping && queue.empty()) {
      worker_done = true;
      progress.notify_all();
      return;
    }
  }
}

batch_span_processor::batch_span_processor(std::shared_ptr<span_exporter> e, batch_options o) {
  if (o.max_queue_size == 0)
    o.max_queue_size = 1;
  if (o.max_export_batch_size == 0 || o.max_export_batch_size > o.max_queue_size)
    o.max_export_batch_size = o.max_queue_size;
  state_ = std::make_shared<state>(std::move(e), o);
  worker_ = std::thread([st = state_] { st->run(); });
}

batch_span_processor::~batch_span_processor() { shutdown(); }

void batch_span_processor::on_end(std::unique_ptr<span_data> span) {
  std::lock_guard<std::mutex> lock(state_->mtx);
  if (state_->admit(1))
    state_->queue.push_back({std::move(span), nullptr});
}

void batch_span_processor::on_end(std::unique_ptr<span_group> group) {
  std::lock_guard<std::mutex> lock(state_->mtx);
  if (!group->members.empty() && state_->admit(group->members.size()))
    state_->queue.push_back({nullptr, std::move(group)});
}

bool batch_span_processor::force_flush(std::chrono::milliseconds timeout) {
  auto& st = *state_;
  std::unique_lock<std::mutex> lock(st.mtx);
  if (st.worker_done)
    return st.queue.empty();
  auto ticket = ++st.flush_requests;
  st.wake.notify_one();
  return st.progress.wait_for(lock, timeout, [&] { return st.flushes_done >= ticket || st.worker_done; });
}

bool batch_span_processor::shutdown(std::chrono::milliseconds timeout) {
  auto& st = *state_;
  std::unique_lock<std::mutex> lock(st.mtx);
  if (st.shutdown_started) // the first caller owns the thread; later ones report
    return st.worker_done;
  st.shutdown_started = true;
  st.stopping = true;
  st.wake.notify_one();
  bool done = st.progress.wait_for(lock, timeout, [&] { return st.worker_done; });
  lock.unlock();
  if (done) {
    worker_.join();
  } else {
    std::fprintf(stderr, "cafmcp-otel: span export still running at the shutdown deadline; left behind\n");
    worker_.detach();
  }
  st.exporter->shutdown(); // also cuts a still-running export short
  if (auto lost = dropped(); lost > 0)
    std::fprintf(stderr, "cafmcp-otel: %zu spans dropped in all (queue full or export failed)\n", lost);
  return done;
}

std::size_t batch_span_processor::dropped() const {
  std::lock_guard<std::mutex> g(state_->mtx);
  return state_->dropped;
}

std::size_t batch_span_processor::exported() const {
  std::lock_guard<std::mutex> g(state_->mtx);
  return state_->exported;
}

const batch_options& batch_span_processor::options() const { return state_->opts; }

} // namespace cafmcp::otel

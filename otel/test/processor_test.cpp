// Processors: the simple one exports inline; the batch one never blocks
// its caller, drops and counts when full, and keeps its deadlines.
#include <future>
#include <mutex>

#include <gtest/gtest.h>

#include "test_exporters.hpp"

namespace cafmcp::otel {
namespace {

using namespace std::chrono_literals;
using testing::collecting_exporter;
using testing::provider_with;
using testing::stuck_exporter;

std::unique_ptr<span_data> a_span(const std::string& name = "s") {
  auto d = std::make_unique<span_data>();
  d->context = {random_trace_id(), random_span_id(), 1, {}, false};
  d->name = name;
  return d;
}

TEST(SimpleProcessor, ExportsOnEndAndNothingAfterShutdown) {
  auto exporter = std::make_shared<collecting_exporter>();
  simple_span_processor p(exporter);
  p.on_end(a_span("one"));
  EXPECT_EQ(exporter->snapshot().size(), 1u);
  EXPECT_TRUE(p.shutdown(1s));
  p.on_end(a_span("late"));
  EXPECT_EQ(exporter->snapshot().size(), 1u);
}

TEST(BatchProcessor, DropsWhenFullAndNeverBlocks) {
  std::promise<void> release;
  auto exporter = std::make_shared<stuck_exporter>(release.get_future().share());
  batch_options o;
  o.max_queue_size = 10;
  o.max_export_batch_size = 5;
  auto processor = std::make_shared<batch_span_processor>(exporter, o);
  auto tracer = provider_with(processor)->get_tracer("test");
  // Fill the queue to a full batch: the worker wakes and hangs in export.
  for (int i = 0; i < 5; ++i)
    tracer.start("first");
  exporter->first_call.get_future().wait(); // bounded: a full batch wakes the worker at once
  // With the exporter hung, the worker holds at most 10 (it took the whole
  // queue) and at most 10 more fit in the queue: every other span must be
  // dropped and counted, and on_end must return each time for the loop to
  // end at all.
  for (int i = 0; i < 1000; ++i)
    tracer.start("s");
  EXPECT_GE(processor->dropped(), 1000u - 10u);
  EXPECT_EQ(processor->exported(), 0u);
  release.set_value();
  EXPECT_TRUE(processor->force_flush(10s));
  EXPECT_EQ(processor->dropped() + processor->exported(), 1005u);
  EXPECT_EQ(exporter->spans.load(), processor->exported());
}

TEST(BatchProcessor, ForceFlushExportsEverythingQueued) {
  auto exporter = std::make_shared<collecting_exporter>();
  batch_options o;
  o.schedule_delay = std::chrono::hours(1); // only the flush moves spans
  auto processor = std::make_shared<batch_span_processor>(exporter, o);
  auto provider = provider_with(processor);
  auto tracer = provider->get_tracer("test");
  for (int i = 0; i < 7; ++i)
    tracer.start("s");
  ASSERT_TRUE(provider->force_flush(10s));
  EXPECT_EQ(exporter->snapshot().size(), 7u);
  EXPECT_EQ(processor->exported(), 7u);
}

TEST(BatchProcessor, AFullBatchGoesOutWithoutWaitingForTheSchedule) {
  auto exporter = std::make_shared<collecting_exporter>();
  batch_options o;
  o.schedule_delay = std::chrono::hours(1);
  o.max_export_batch_size = 4;
  auto processor = std::make_shared<batch_span_processor>(exporter, o);
  for (int i = 0; i < 4; ++i)
    processor->on_end(a_span());
  // No flush, and the schedule is an hour away: only the batch-size
  // wake-up can export these.
  EXPECT_TRUE(exporter->wait_for(4, 10s));
}

TEST(BatchProcessor, BatchesAreCappedAndCarryTheExportDeadline) {
  auto exporter = std::make_shared<collecting_exporter>();
  batch_options o;
  o.schedule_delay = std::chrono::hours(1);
  o.max_export_batch_size = 3;
  o.export_timeout = 1234ms;
  auto processor = std::make_shared<batch_span_processor>(exporter, o);
  auto before = std::chrono::steady_clock::now();
  for (int i = 0; i < 7; ++i)
    processor->on_end(a_span());
  ASSERT_TRUE(processor->force_flush(10s));
  std::lock_guard<std::mutex> g(exporter->mtx);
  EXPECT_EQ(exporter->spans.size(), 7u);
  ASSERT_GE(exporter->deadlines.size(), 3u); // 7 spans in batches of at most 3
  for (auto d : exporter->deadlines) {
    EXPECT_GE(d, before + 1234ms);
    EXPECT_LE(d, std::chrono::steady_clock::now() + 1234ms);
  }
}

// A group of `members` sends.
std::unique_ptr<span_group> group(int members) {
  auto g = std::make_unique<span_group>();
  g->common.context = {random_trace_id(), {}, 1, {}, false};
  for (int i = 0; i < members; ++i)
    g->add(1, 2, "m");
  return g;
}

// A five-span queue exported only on flush or shutdown.
std::shared_ptr<batch_span_processor> five_span_queue(std::shared_ptr<span_exporter> exporter) {
  batch_options o;
  o.max_queue_size = 5;
  o.schedule_delay = std::chrono::hours(1);
  return std::make_shared<batch_span_processor>(std::move(exporter), o);
}

TEST(BatchProcessor, SpanGroupsCountAsTheirMembers) {
  auto exporter = std::make_shared<collecting_exporter>();
  auto processor = five_span_queue(exporter);
  processor->on_end(group(3));
  processor->on_end(group(3)); // 6 > 5: dropped whole
  processor->on_end(group(2));
  ASSERT_TRUE(processor->force_flush(10s));
  EXPECT_EQ(processor->dropped(), 3u);
  EXPECT_EQ(exporter->snapshot().size(), 5u);
}

TEST(BatchProcessor, DropsAreReportedOnStderrOnceAndInTotalAtShutdown) {
  auto exporter = std::make_shared<collecting_exporter>();
  auto processor = five_span_queue(exporter);
  ::testing::internal::CaptureStderr();
  processor->on_end(group(4));
  processor->on_end(group(3)); // dropped: reported at once
  processor->on_end(group(2)); // dropped: counted, not reported again
  EXPECT_TRUE(processor->shutdown(10s));
  auto err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("span queue full (5 spans)"), std::string::npos) << err;
  EXPECT_NE(err.find("OTEL_BSP_MAX_QUEUE_SIZE"), std::string::npos) << err;
  EXPECT_EQ(err.find("span queue full"), err.rfind("span queue full")) << err;
  EXPECT_NE(err.find("5 spans dropped in all"), std::string::npos) << err;
  EXPECT_EQ(exporter->snapshot().size(), 4u);
}

// Keeps each batch's shape (single spans, group sizes) as handed over. Its
// first export waits for `release`, so what arrives meanwhile is queued and
// taken in one go afterwards.
struct batch_shape_exporter : span_exporter {
  std::mutex mtx;
  std::vector<std::pair<std::size_t, std::vector<std::size_t>>> batches;
  std::promise<void> entered;
  std::shared_future<void> release;
  bool export_spans(const std::vector<span_data>&) override { return false; } // never used: groups stay whole
  bool export_batch(span_batch& b, deadline) override {
    std::vector<std::size_t> groups;
    for (auto& g : b.groups)
      groups.push_back(g->members.size());
    bool first;
    {
      std::lock_guard<std::mutex> lock(mtx);
      first = batches.empty();
      batches.emplace_back(b.spans.size(), std::move(groups));
    }
    if (first) {
      entered.set_value();
      release.wait();
    }
    return true;
  }
};

TEST(BatchProcessor, GroupsReachTheExporterWholeInBatchesOfAtMostTheBatchSize) {
  auto exporter = std::make_shared<batch_shape_exporter>();
  std::promise<void> release;
  exporter->release = release.get_future().share();
  batch_options o;
  o.max_export_batch_size = 4;
  o.schedule_delay = std::chrono::hours(1);
  auto processor = std::make_shared<batch_span_processor>(exporter, o);
  processor->on_end(a_span());
  processor->on_end(group(3)); // fills the first batch (1 + 3): the worker takes it
  exporter->entered.get_future().wait();
  processor->on_end(group(6)); // larger than a batch: alone, whole
  processor->on_end(a_span());
  processor->on_end(group(2));
  release.set_value();
  ASSERT_TRUE(processor->force_flush(10s));
  EXPECT_EQ(processor->exported(), 13u);
  EXPECT_EQ(processor->dropped(), 0u);
  std::lock_guard<std::mutex> lock(exporter->mtx);
  using shape = std::pair<std::size_t, std::vector<std::size_t>>;
  EXPECT_EQ(exporter->batches, (std::vector<shape>{{1, {3}}, {0, {6}}, {1, {2}}}));
}

TEST(BatchProcessor, ShutdownExportsTheRestThenRefusesSpans) {
  auto exporter = std::make_shared<collecting_exporter>();
  batch_options o;
  o.schedule_delay = std::chrono::hours(1);
  auto processor = std::make_shared<batch_span_processor>(exporter, o);
  for (int i = 0; i < 3; ++i)
    processor->on_end(a_span());
  EXPECT_TRUE(processor->shutdown(10s));
  EXPECT_EQ(exporter->snapshot().size(), 3u);
  processor->on_end(a_span("late"));
  EXPECT_EQ(processor->dropped(), 1u);
  EXPECT_TRUE(processor->shutdown(10s)); // again: reports, changes nothing
  EXPECT_TRUE(processor->force_flush(1s));
}

TEST(BatchProcessor, ShutdownKeepsItsDeadlineWhenTheExporterHangs) {
  std::promise<void> release;
  auto exporter = std::make_shared<stuck_exporter>(release.get_future().share());
  {
    batch_options o;
    o.schedule_delay = std::chrono::hours(1);
    batch_span_processor processor(exporter, o);
    processor.on_end(a_span());
    EXPECT_FALSE(processor.force_flush(50ms)); // the deadline, not the exporter, ends the wait
    EXPECT_FALSE(processor.shutdown(50ms));
  } // the destructor must not wait either: the worker was left behind
  EXPECT_EQ(exporter->calls.load(), 1);
  release.set_value(); // the abandoned worker finishes on its own state
}

} // namespace
} // namespace cafmcp::otel

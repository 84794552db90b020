// Spans end into processors; the batch processor never blocks its caller.
#include <gtest/gtest.h>

#include <future>

#include "cafmcp/otel/tracer.hpp"

namespace cafmcp::otel {
namespace {

struct collecting_exporter : span_exporter {
  std::mutex mtx;
  std::vector<span_data> spans;
  bool export_spans(const std::vector<span_data>& batch) override {
    std::lock_guard<std::mutex> g(mtx);
    spans.insert(spans.end(), batch.begin(), batch.end());
    return true;
  }
};

// Blocks every export until released: a collector that hangs.
struct stuck_exporter : span_exporter {
  std::shared_future<void> release;
  std::atomic<int> calls{0};
  bool export_spans(const std::vector<span_data>&) override {
    ++calls;
    release.wait();
    return true;
  }
};

TEST(Spans, ParentChildAndAttributesReachTheExporter) {
  auto exporter = std::make_shared<collecting_exporter>();
  auto provider = std::make_shared<tracer_provider>(resource::with_service("t"), always_on(),
                                                    std::make_shared<simple_span_processor>(exporter));
  auto tracer = provider->get_tracer("test");
  {
    auto parent = tracer.start("parent", {span_kind::server});
    parent.set_attribute("a", std::int64_t{1}).add_event("e");
    auto child = tracer.start("child", {span_kind::internal, parent.context()});
    child.set_status(status_code::error, "bad");
  }
  ASSERT_EQ(exporter->spans.size(), 2u);
  auto& child = exporter->spans[0];
  auto& parent = exporter->spans[1];
  EXPECT_EQ(child.name, "child");
  EXPECT_EQ(child.context.trace, parent.context.trace);
  EXPECT_EQ(child.parent, parent.context.span);
  EXPECT_EQ(child.status, status_code::error);
  EXPECT_EQ(parent.kind, span_kind::server);
  EXPECT_EQ(std::get<std::int64_t>(parent.attributes[0].second), 1);
  EXPECT_EQ(parent.events[0].name, "e");
  EXPECT_LE(parent.start_unix_nano, parent.end_unix_nano);
}

TEST(Spans, UnsampledSpansExportNothingButCarryTheDecision) {
  auto exporter = std::make_shared<collecting_exporter>();
  auto provider = std::make_shared<tracer_provider>(resource::with_service("t"), parent_based(always_off()),
                                                    std::make_shared<simple_span_processor>(exporter));
  auto tracer = provider->get_tracer("test");
  {
    auto root = tracer.start("root");
    EXPECT_FALSE(root.recording());
    EXPECT_TRUE(root.context().valid());
    EXPECT_FALSE(root.context().sampled());
    auto child = tracer.start("child", {span_kind::internal, root.context()});
    EXPECT_FALSE(child.recording());
  }
  EXPECT_TRUE(exporter->spans.empty());
}

TEST(BatchProcessor, DropsWhenFullAndNeverBlocks) {
  auto exporter = std::make_shared<stuck_exporter>();
  std::promise<void> release;
  exporter->release = release.get_future().share();
  batch_options o;
  o.max_queue_size = 10;
  o.max_export_batch_size = 5;
  o.schedule_delay = std::chrono::milliseconds(1);
  auto processor = std::make_shared<batch_span_processor>(exporter, o);
  auto provider = std::make_shared<tracer_provider>(resource::with_service("t"), always_on(), processor);
  auto tracer = provider->get_tracer("test");
  // With the exporter stuck, the worker holds at most what it took (10)
  // and 10 more wait in the queue: everything beyond is dropped and
  // counted, and this loop still ends.
  for (int i = 0; i < 1000; ++i)
    tracer.start("s" + std::to_string(i));
  EXPECT_GE(processor->dropped(), 1000u - 20u);
  release.set_value();
  EXPECT_TRUE(processor->force_flush(std::chrono::seconds(10)));
  EXPECT_EQ(processor->dropped() + processor->exported(), 1000u);
}

TEST(BatchProcessor, ForceFlushExportsEverythingQueued) {
  auto exporter = std::make_shared<collecting_exporter>();
  batch_options o;
  o.schedule_delay = std::chrono::hours(1); // only the flush moves spans
  auto processor = std::make_shared<batch_span_processor>(exporter, o);
  auto provider = std::make_shared<tracer_provider>(resource::with_service("t"), always_on(), processor);
  auto tracer = provider->get_tracer("test");
  for (int i = 0; i < 7; ++i)
    tracer.start("s");
  ASSERT_TRUE(provider->force_flush(std::chrono::seconds(10)));
  std::lock_guard<std::mutex> g(exporter->mtx);
  EXPECT_EQ(exporter->spans.size(), 7u);
}

} // namespace
} // namespace cafmcp::otel

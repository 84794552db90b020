// Tracing off must cost next to nothing: no heap allocation for a disabled
// tracer's spans, nor for a sampled-out span, nor for a null MCP hook.
// Counts this thread's allocations through a replaced operator new.
#include <cstdlib>
#include <new>

#include <gtest/gtest.h>

#include "cafmcp/otel/mcp_tracer.hpp"

#include "test_exporters.hpp"

namespace {
thread_local std::size_t allocations = 0;
}

// GCC 12 sees std::allocator's (inlined) ::operator new paired with the
// free() below and warns of a mismatch; both halves are replaced here, so
// the pair matches.
#pragma GCC diagnostic ignored "-Wmismatched-new-delete"

void* operator new(std::size_t n) {
  ++allocations;
  if (void* p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace cafmcp::otel {
namespace {

template <class F>
std::size_t allocations_of(F&& f) {
  auto before = allocations;
  f();
  return allocations - before;
}

TEST(NoAllocation, DisabledTracerSpans) {
  tracer off;
  EXPECT_EQ(allocations_of([&] {
              for (int i = 0; i < 100; ++i) {
                auto s = off.start("a span name long enough to need the heap as a std::string");
                s.set_attribute("an attribute key longer than fifteen", "and a long string value too");
                s.set_attribute("another long attribute key", std::int64_t{42});
                s.set_status(status_code::error);
                s.end();
              }
            }),
            0u);
}

TEST(NoAllocation, SampledOutSpans) {
  auto exporter = std::make_shared<testing::collecting_exporter>();
  auto provider =
    testing::provider_with(std::make_shared<simple_span_processor>(exporter), parent_based(always_off()));
  auto t = provider->get_tracer("test");
  t.start("warm-up"); // first use seeds this thread's id generator
  auto root = t.start("root");
  start_options child;
  child.parent = root.context();
  EXPECT_EQ(allocations_of([&] {
              for (int i = 0; i < 100; ++i) {
                auto s = t.start("a span name long enough to need the heap as a std::string", child);
                EXPECT_FALSE(s.recording());
              }
            }),
            0u);
  EXPECT_TRUE(exporter->snapshot().empty());
}

TEST(NoAllocation, TheMcpHookIsNullWhenTracingIsOff) {
  EXPECT_EQ(make_mcp_tracer(nullptr), nullptr);
  auto p = testing::provider_with(
    std::make_shared<simple_span_processor>(std::make_shared<testing::collecting_exporter>()), always_off());
  EXPECT_EQ(make_mcp_tracer(p), nullptr); // always_off can never sample: no hook at all
  cafmcp::tracer* hook = nullptr;
  EXPECT_EQ(allocations_of([&] {
              for (int i = 0; i < 100; ++i)
                EXPECT_EQ(cafmcp::start_span(hook, "tools/call", cafmcp::span_kind::server), nullptr);
            }),
            0u);
}

} // namespace
} // namespace cafmcp::otel

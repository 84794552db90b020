// Spans: what they record, how they nest, and what a non-recording or
// disabled span does.
#include <gtest/gtest.h>

#include "test_exporters.hpp"

namespace cafmcp::otel {
namespace {

using testing::collecting_exporter;
using testing::provider_with;

struct fixture : ::testing::Test {
  std::shared_ptr<collecting_exporter> exporter = std::make_shared<collecting_exporter>();
  std::shared_ptr<tracer_provider> provider =
    provider_with(std::make_shared<simple_span_processor>(exporter));
  tracer t = provider->get_tracer("test", "1.2.3");
};

using Spans = fixture;

start_options child_of(const span_context& parent, span_kind kind = span_kind::internal) {
  start_options o;
  o.kind = kind;
  o.parent = parent;
  return o;
}

TEST_F(Spans, ParentChildAndAttributesReachTheExporter) {
  {
    start_options server;
    server.kind = span_kind::server;
    auto parent = t.start("parent", server);
    parent.set_attribute("a", std::int64_t{1}).set_attribute("a", std::int64_t{2}).add_event("e");
    auto child = t.start("child", child_of(parent.context()));
    child.set_status(status_code::error, "bad");
    child.set_attribute("literal", "text").set_attribute("view", std::string_view("v"));
    child.set_attribute("string", std::string("s")).set_attribute("flag", true).set_attribute("int", 5);
  }
  auto spans = exporter->snapshot();
  ASSERT_EQ(spans.size(), 2u);
  auto& child = spans[0]; // ends first
  auto& parent = spans[1];
  EXPECT_EQ(child.name, "child");
  EXPECT_EQ(child.context.trace, parent.context.trace);
  EXPECT_EQ(child.parent, parent.context.span);
  EXPECT_FALSE(child.parent_remote);
  EXPECT_FALSE(is_valid(parent.parent)); // a root
  EXPECT_EQ(child.status, status_code::error);
  EXPECT_EQ(child.status_message, "bad");
  ASSERT_EQ(child.attributes.size(), 5u);
  EXPECT_EQ(std::get<std::string>(child.attributes[0].second), "text"); // not a bool
  EXPECT_EQ(std::get<std::string>(child.attributes[1].second), "v");
  EXPECT_EQ(std::get<std::string>(child.attributes[2].second), "s");
  EXPECT_EQ(std::get<bool>(child.attributes[3].second), true);
  EXPECT_EQ(std::get<std::int64_t>(child.attributes[4].second), 5);
  EXPECT_EQ(parent.kind, span_kind::server);
  ASSERT_EQ(parent.attributes.size(), 1u); // the same key twice: replaced, not repeated
  EXPECT_EQ(std::get<std::int64_t>(parent.attributes[0].second), 2);
  EXPECT_EQ(parent.events[0].name, "e");
  EXPECT_LE(parent.start_unix_nano, parent.end_unix_nano);
  ASSERT_TRUE(parent.scope);
  EXPECT_EQ(parent.scope->name, "test");
  EXPECT_EQ(parent.scope->version, "1.2.3");
}

TEST_F(Spans, ExplicitTimestampsAreKept) {
  {
    start_options o;
    o.start_unix_nano = 1000;
    auto s = t.start("timed", o);
    s.add_event("at", 1500, {{"k", std::string("v")}});
    s.end(2000);
    s.end(9999); // ending twice changes nothing
  }
  auto spans = exporter->snapshot();
  ASSERT_EQ(spans.size(), 1u);
  EXPECT_EQ(spans[0].start_unix_nano, 1000u);
  EXPECT_EQ(spans[0].end_unix_nano, 2000u);
  EXPECT_EQ(spans[0].events[0].time_unix_nano, 1500u);
}

TEST_F(Spans, AnEndBeforeTheStartIsClampedToIt) {
  start_options o;
  o.start_unix_nano = 5000;
  t.start("backwards", o).end(4000);
  EXPECT_EQ(exporter->snapshot().at(0).end_unix_nano, 5000u);
}

TEST_F(Spans, StatusFollowsTheApiRules) {
  {
    auto a = t.start("ok-is-final");
    a.set_status(status_code::ok, "ignored for ok").set_status(status_code::error, "too late");
    auto b = t.start("unset-is-ignored");
    b.set_status(status_code::error, "boom").set_status(status_code::unset);
  }
  auto spans = exporter->snapshot();
  EXPECT_EQ(spans[0].status, status_code::error);
  EXPECT_EQ(spans[0].status_message, "boom");
  EXPECT_EQ(spans[1].status, status_code::ok);
  EXPECT_EQ(spans[1].status_message, "");
}

TEST_F(Spans, LinksKindsAndRemoteParents) {
  auto remote = *parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "v=1");
  span_context linked{random_trace_id(), random_span_id(), 1, {}, false};
  {
    auto o = child_of(remote, span_kind::consumer);
    o.links.push_back({linked, {{"why", std::string("batch")}}});
    o.attributes = {{"preset", true}};
    auto s = t.start("consume", o);
    s.add_link(span_context{}); // links to nothing are dropped
    s.update_name("consume renamed");
  }
  auto s = exporter->snapshot().at(0);
  EXPECT_EQ(s.name, "consume renamed");
  EXPECT_EQ(s.kind, span_kind::consumer);
  EXPECT_EQ(s.context.trace, remote.trace);
  EXPECT_EQ(s.parent, remote.span);
  EXPECT_TRUE(s.parent_remote);
  EXPECT_EQ(s.context.tracestate, "v=1"); // inherited from the parent
  ASSERT_EQ(s.links.size(), 1u);
  EXPECT_EQ(s.links[0].context.span, linked.span);
  EXPECT_EQ(std::get<bool>(s.attributes.at(0).second), true);
}

TEST_F(Spans, ContextStaysReadableAfterEnd) {
  auto s = t.start("s");
  auto before = s.context();
  s.end();
  EXPECT_FALSE(s.recording());
  EXPECT_EQ(s.context().span, before.span);
  EXPECT_TRUE(s.context().sampled());
}

TEST_F(Spans, MovedSpansEndOnce) {
  {
    auto a = t.start("a");
    span b = std::move(a);
    span c = t.start("c");
    c = std::move(b); // ends c, takes over a
  }
  auto spans = exporter->snapshot();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].name, "c");
  EXPECT_EQ(spans[1].name, "a");
}

TEST(SpansSampledOut, ExportNothingButCarryTheDecision) {
  auto exporter = std::make_shared<collecting_exporter>();
  auto provider =
    provider_with(std::make_shared<simple_span_processor>(exporter), parent_based(always_off()));
  auto t = provider->get_tracer("test");
  {
    auto root = t.start("root");
    EXPECT_FALSE(root.recording());
    EXPECT_TRUE(root.context().valid());
    EXPECT_FALSE(root.context().sampled());
    auto child = t.start("child", child_of(root.context()));
    EXPECT_FALSE(child.recording());
    EXPECT_EQ(child.context().trace, root.context().trace);
    root.set_attribute("ignored", true).add_event("ignored").set_status(status_code::error, "x");
  }
  EXPECT_TRUE(exporter->snapshot().empty());
}

TEST(SpansDisabled, ADisabledTracerHandsOutNoOpSpans) {
  tracer off; // what get_tracer(nullptr, ...) returns
  EXPECT_FALSE(off.enabled());
  EXPECT_FALSE(get_tracer(nullptr, "x").enabled());
  auto s = off.start("nothing");
  EXPECT_FALSE(s.recording());
  EXPECT_FALSE(s.context().valid());
  s.set_attribute("k", std::int64_t{1});
  s.end();
  EXPECT_FALSE(off.start_group("g", {}, "k"));
}

TEST(SpanGroups, ExpandIntoSiblingSpans) {
  auto exporter = std::make_shared<collecting_exporter>();
  auto provider = provider_with(std::make_shared<simple_span_processor>(exporter));
  auto t = provider->get_tracer("test");
  auto parent = t.start("broadcast");
  {
    auto group = t.start_group("send", child_of(parent.context(), span_kind::client), "session");
    ASSERT_TRUE(group);
    group->record("s1", 10, 20);
    group->record("s2", 11, 21);
  }
  auto spans = exporter->snapshot();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_NE(spans[0].context.span, spans[1].context.span);
  for (auto& s : spans) {
    EXPECT_EQ(s.parent, parent.context().span);
    EXPECT_EQ(s.kind, span_kind::client);
    EXPECT_EQ(s.name, "send");
  }
  EXPECT_EQ(std::get<std::string>(spans[1].attributes.back().second), "s2");
  EXPECT_EQ(spans[1].start_unix_nano, 11u);
}

} // namespace
} // namespace cafmcp::otel

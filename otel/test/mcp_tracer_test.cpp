// The adapter to cafmcp's tracing hook (include/cafmcp/tracing.hpp).
#include <gtest/gtest.h>

#include "cafmcp/otel/mcp_tracer.hpp"

#include "test_exporters.hpp"

namespace cafmcp::otel {
namespace {

using testing::collecting_exporter;
using testing::provider_with;

const cafmcp::trace_context remote{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", "rojo=1"};

struct McpTracer : ::testing::Test {
  std::shared_ptr<collecting_exporter> exporter = std::make_shared<collecting_exporter>();
  std::shared_ptr<cafmcp::tracer> hook(std::shared_ptr<sampler> s = parent_based(always_on())) {
    return make_mcp_tracer(provider_with(std::make_shared<simple_span_processor>(exporter), std::move(s)));
  }
};

TEST_F(McpTracer, ServerSpanUnderARemoteParent) {
  auto t = hook();
  cafmcp::trace_context ctx;
  {
    auto s = t->start("tools/call get-weather", cafmcp::span_kind::server, remote);
    ASSERT_NE(s, nullptr);
    s->set_attribute("mcp.method.name", std::string("tools/call"));
    s->set_attribute("jsonrpc.request.id", std::string("7"));
    s->set_attribute("n", std::int64_t{3});
    ctx = s->context();
  }
  auto spans = exporter->snapshot();
  ASSERT_EQ(spans.size(), 1u);
  auto& s = spans[0];
  EXPECT_EQ(s.name, "tools/call get-weather");
  EXPECT_EQ(s.kind, span_kind::server);
  EXPECT_EQ(to_hex(s.context.trace), "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(to_hex(s.parent), "00f067aa0ba902b7");
  EXPECT_TRUE(s.parent_remote);
  EXPECT_EQ(std::get<std::string>(s.attributes[0].second), "tools/call");
  // Its context names this span, for children and for _meta.traceparent.
  EXPECT_EQ(ctx.traceparent, format_traceparent(s.context));
  EXPECT_EQ(ctx.tracestate, "rojo=1");
}

TEST_F(McpTracer, SetErrorSetsTypeAndStatus) {
  auto t = hook();
  t->start("resources/read", cafmcp::span_kind::server, {})->set_error("-32602", "Invalid params");
  auto s = exporter->snapshot().at(0);
  EXPECT_EQ(s.status, status_code::error);
  EXPECT_EQ(s.status_message, "Invalid params");
  EXPECT_EQ(std::get<std::string>(s.attributes.at(0).second), "-32602");
  EXPECT_EQ(s.attributes.at(0).first, "error.type");
}

TEST_F(McpTracer, EmptyOrMalformedParentsStartRoots) {
  auto t = hook();
  t->start("root", cafmcp::span_kind::internal, {});
  t->start("bad parent", cafmcp::span_kind::internal, {"00-XYZ", ""});
  for (auto& s : exporter->snapshot()) {
    EXPECT_FALSE(is_valid(s.parent)) << s.name;
    EXPECT_EQ(s.kind, span_kind::internal);
  }
}

TEST_F(McpTracer, ChildrenNestThroughContexts) {
  auto t = hook();
  {
    auto parent = t->start("mutation", cafmcp::span_kind::internal, {});
    auto child = t->start("send", cafmcp::span_kind::client, parent->context());
  }
  auto spans = exporter->snapshot();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(spans[0].parent, spans[1].context.span);
  EXPECT_EQ(spans[0].context.trace, spans[1].context.trace);
  EXPECT_EQ(spans[0].kind, span_kind::client);
}

TEST_F(McpTracer, AnUnsampledParentMeansNoSpanUnderParentBased) {
  auto t = hook();
  cafmcp::trace_context unsampled{"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", ""};
  EXPECT_EQ(t->start("x", cafmcp::span_kind::server, unsampled), nullptr);
  EXPECT_EQ(t->start_send_group("send", cafmcp::span_kind::client, unsampled, {}, 1), nullptr);
  EXPECT_TRUE(exporter->snapshot().empty());
}

TEST_F(McpTracer, ASampledOutRootStillPropagatesItsDecision) {
  auto t = hook(parent_based(trace_id_ratio(0.0)));
  ASSERT_NE(t, nullptr);
  auto s = t->start("root", cafmcp::span_kind::server, {});
  ASSERT_NE(s, nullptr);
  auto ctx = s->context();
  auto parsed = parse_traceparent(ctx.traceparent);
  ASSERT_TRUE(parsed);
  EXPECT_FALSE(parsed->sampled()); // peers see "not sampled" and follow
  EXPECT_EQ(t->start("child", cafmcp::span_kind::internal, ctx), nullptr);
  s.reset();
  EXPECT_TRUE(exporter->snapshot().empty());
}

TEST_F(McpTracer, SendGroupsBecomeOneSpanPerSession) {
  auto t = hook();
  {
    auto g = t->start_send_group("send notifications/resources/updated", cafmcp::span_kind::client, remote,
                                 {{"mcp.method.name", std::string("notifications/resources/updated")}}, 2);
    ASSERT_NE(g, nullptr);
    g->record("session-a", 100, 200);
    g->record("session-b", 110, 210);
  }
  auto spans = exporter->snapshot();
  ASSERT_EQ(spans.size(), 2u);
  EXPECT_EQ(std::get<std::string>(spans[0].attributes.back().second), "session-a");
  EXPECT_EQ(spans[0].attributes.back().first, "mcp.session.id");
  EXPECT_EQ(spans[1].end_unix_nano, 210u);
  EXPECT_EQ(spans[1].kind, span_kind::client);
}

} // namespace
} // namespace cafmcp::otel

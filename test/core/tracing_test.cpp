// The core's tracing hook, through cafmcp's own OpenTelemetry library with an
// in-memory exporter: the span tree of one mutation, and trace context in
// and out of `_meta`.
#include <mutex>

#include "cafmcp/otel/mcp_tracer.hpp"
#include "cafmcp/otel/tracer.hpp"

#include "support.hpp"

namespace cafmcp::test {
namespace {

struct memory_exporter : otel::span_exporter {
  std::mutex mtx;
  std::vector<otel::span_data> spans;
  bool export_spans(const std::vector<otel::span_data>& batch) override {
    std::lock_guard<std::mutex> g(mtx);
    spans.insert(spans.end(), batch.begin(), batch.end());
    return true;
  }
  std::vector<otel::span_data> named(const std::string& name) {
    std::lock_guard<std::mutex> g(mtx);
    std::vector<otel::span_data> out;
    for (auto& s : spans)
      if (s.name == name)
        out.push_back(s);
    return out;
  }
};

std::string attr(const otel::span_data& s, const std::string& key) {
  for (auto& [k, v] : s.attributes)
    if (k == key)
      return std::visit(
        [](auto& x) {
          if constexpr (std::is_same_v<std::decay_t<decltype(x)>, std::string>)
            return x;
          else
            return std::to_string(x);
        },
        v);
  return {};
}

struct Tracing : ::testing::Test {
  std::shared_ptr<memory_exporter> exporter = std::make_shared<memory_exporter>();
  std::shared_ptr<otel::tracer_provider> provider =
    std::make_shared<otel::tracer_provider>(otel::resource::with_service("test"), otel::always_on(),
                                            std::make_shared<otel::simple_span_processor>(exporter));
  server_options opts() {
    auto o = all_on();
    o.tracer = otel::make_mcp_tracer(provider);
    return o;
  }
};

TEST_F(Tracing, RequestSpansFollowTheSemanticConventionsAndTheirParent) {
  server srv(opts());
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  in_process_client c(srv);
  c.initialize();
  auto parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";
  auto reply = c.request(
    "tools/call", {{"name", "echo"}, {"arguments", {{"text", "x"}}}, {"_meta", {{"traceparent", parent}}}});
  ASSERT_TRUE(reply.contains("result"));
  auto spans = exporter->named("tools/call echo");
  ASSERT_EQ(spans.size(), 1u);
  auto& s = spans[0];
  EXPECT_EQ(s.kind, otel::span_kind::server);
  EXPECT_EQ(otel::to_hex(s.context.trace), "4bf92f3577b34da6a3ce929d0e0e4736");
  EXPECT_EQ(otel::to_hex(s.parent), "00f067aa0ba902b7");
  EXPECT_EQ(attr(s, "mcp.method.name"), "tools/call");
  EXPECT_EQ(attr(s, "gen_ai.tool.name"), "echo");
  EXPECT_EQ(attr(s, "mcp.session.id"), c.session_id());
  EXPECT_EQ(attr(s, "mcp.protocol.version"), "2025-11-25");
  EXPECT_FALSE(attr(s, "jsonrpc.request.id").empty());
}

TEST_F(Tracing, ErrorsAndToolErrorsMarkTheSpan) {
  server srv(opts());
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  in_process_client c(srv);
  c.initialize();
  c.request("resources/read", {{"uri", "mem://none"}});
  c.request("tools/call", {{"name", "echo"}, {"arguments", {{"text", 1}}}}); // invalid: isError
  auto read = exporter->named("resources/read");
  ASSERT_EQ(read.size(), 1u);
  EXPECT_EQ(read[0].status, otel::status_code::error);
  EXPECT_EQ(attr(read[0], "rpc.response.status_code"), "-32002");
  EXPECT_EQ(attr(read[0], "mcp.resource.uri"), "mem://none");
  auto call = exporter->named("tools/call echo");
  ASSERT_EQ(call.size(), 1u);
  EXPECT_EQ(attr(call[0], "error.type"), "tool_error");
}

TEST_F(Tracing, AMutationIsFollowedFromRequestToEverySend) {
  server srv(opts());
  server* s = &srv;
  tool adder = echo_tool("adder");
  adder.handler = [s](const json& args, request_context&) {
    s->add_resource(text_resource(args["text"], "r", "x")).get();
    return tool_result::text("ok");
  };
  ASSERT_TRUE(applied(srv.add_tool(adder)));
  in_process_client a(srv), b(srv);
  a.initialize();
  b.initialize();
  a.request("tools/call", {{"name", "adder"}, {"arguments", {{"text", "mem://t"}}}});
  auto note = b.wait_for_method("notifications/resources/list_changed");
  ASSERT_TRUE(note);
  srv.stats();
  auto call = exporter->named("tools/call adder");
  auto mutation = exporter->named("mutation add_resource");
  auto broadcast = exporter->named("broadcast notifications/resources/list_changed");
  auto sends = exporter->named("send notifications/resources/list_changed");
  ASSERT_EQ(call.size(), 1u);
  ASSERT_EQ(mutation.size(), 1u);
  ASSERT_EQ(broadcast.size(), 1u);
  ASSERT_EQ(sends.size(), 2u);
  EXPECT_EQ(mutation[0].parent, call[0].context.span);
  EXPECT_EQ(broadcast[0].parent, mutation[0].context.span);
  for (auto& send : sends) {
    EXPECT_EQ(send.parent, broadcast[0].context.span);
    EXPECT_EQ(send.context.trace, call[0].context.trace);
    EXPECT_EQ(send.kind, otel::span_kind::client);
  }
  EXPECT_EQ(attr(broadcast[0], "cafmcp.subscriber_count"), "2");
  EXPECT_EQ((*note)["params"]["_meta"]["traceparent"], otel::format_traceparent(broadcast[0].context));
}

// resources/updated is written as text when nothing goes into it; with a
// span it is built as a tree again and carries the trace context.
TEST_F(Tracing, AResourceUpdatedCarriesItsBroadcastsTraceContext) {
  server srv(opts());
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://u", "u", "x"))));
  in_process_client a(srv);
  a.initialize();
  a.request("resources/subscribe", {{"uri", "mem://u"}});
  ASSERT_TRUE(applied(
    srv.set_resource_contents("mem://u", {resource_contents::make_text("mem://u", "y", "text/plain")})));
  auto note = a.wait_for_method("notifications/resources/updated");
  ASSERT_TRUE(note);
  srv.stats();
  auto broadcast = exporter->named("broadcast notifications/resources/updated");
  ASSERT_EQ(broadcast.size(), 1u);
  EXPECT_EQ((*note)["params"]["uri"], "mem://u");
  EXPECT_EQ((*note)["params"]["_meta"]["traceparent"], otel::format_traceparent(broadcast[0].context));
}

// Two nodes of a cluster, each with its own tracer (as two processes would
// have): the change travels the log with the mutation span's context, so
// the other node's broadcast continues the same trace.
TEST_F(Tracing, AnotherNodesBroadcastContinuesTheMutationsTrace) {
  auto other_exporter = std::make_shared<memory_exporter>();
  auto other_provider =
    std::make_shared<otel::tracer_provider>(otel::resource::with_service("other"), otel::always_on(),
                                            std::make_shared<otel::simple_span_processor>(other_exporter));
  auto one = opts(), two = opts();
  two.tracer = otel::make_mcp_tracer(other_provider);
  for (auto* o : {&one, &two}) {
    o->cluster.url = "memory://tracing-across-nodes";
    o->cluster.secret = "s";
  }
  server n1(one), n2(two);
  in_process_client c(n2);
  c.initialize();
  ASSERT_TRUE(applied(n1.add_resource(text_resource("mem://x", "x", "1"))));
  ASSERT_TRUE(c.wait_for_method("notifications/resources/list_changed"));
  n2.stats(); // the broadcast's spans have ended
  auto mutation = exporter->named("mutation add_resource");
  auto remote = other_exporter->named("broadcast notifications/resources/list_changed");
  ASSERT_EQ(mutation.size(), 1u);
  ASSERT_EQ(remote.size(), 1u);
  EXPECT_EQ(remote[0].context.trace, mutation[0].context.trace);
  EXPECT_EQ(remote[0].parent, mutation[0].context.span);
}

} // namespace
} // namespace cafmcp::test

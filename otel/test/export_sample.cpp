// Exports spans of every shape the library produces, configured only by
// the OTEL_* environment, then prints what it sent (ids, counts) as one
// JSON line for the test driving it (test/otel-receiver/export-sample.test.mjs).
#include <cmath>
#include <cstdio>
#include <string>

#include "cafmcp/otel/environment.hpp"

using namespace cafmcp::otel;

int main() {
  provider_settings settings;
  settings.default_service = "otel-export-sample";
  auto provider = provider_from_environment(settings);
  if (!provider) {
    std::fprintf(stderr, "otel-export-sample: tracing is off (set OTEL_EXPORTER_OTLP_ENDPOINT)\n");
    return 2;
  }
  auto* batch = dynamic_cast<batch_span_processor*>(&provider->processor());
  auto main_tracer = provider->get_tracer("otel-export-sample", "0.1.0");
  auto other_tracer = provider->get_tracer("second-scope");

  auto remote = *parse_traceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
                                   "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE");
  span_context linked{random_trace_id(), random_span_id(), 1, "link=1", true};
  std::string root_span, child_span, remote_child, trace;
  {
    start_options o;
    o.kind = span_kind::server;
    o.attributes = {{"http.request.method", std::string("GET")},
                    {"retries", std::int64_t{-3}},
                    {"big", std::int64_t{9007199254740993}},
                    {"ratio", 0.25},
                    {"cached", false},
                    {"nan", std::nan("")},
                    {"inf", HUGE_VAL}};
    o.links.push_back({linked, {{"link.kind", std::string("follows")}}});
    auto root = main_tracer.start("GET /inventory", o);
    root.add_event("cache miss", {{"key", std::string("k1")}, {"size", std::int64_t{42}}});
    root.set_status(status_code::ok);
    trace = to_hex(root.context().trace);
    root_span = to_hex(root.context().span);
    {
      start_options c;
      c.kind = span_kind::client;
      c.parent = root.context();
      auto child = main_tracer.start("SELECT inventory", c);
      child.set_attribute("db.system", std::string("sqlite"));
      child.set_status(status_code::error, "constraint failed");
      child_span = to_hex(child.context().span);
    }
    {
      start_options p;
      p.kind = span_kind::producer;
      start_options q;
      q.kind = span_kind::consumer;
      other_tracer.start("enqueue", p).end();
      other_tracer.start("dequeue", q).end();
    }
  }
  {
    start_options r;
    r.kind = span_kind::server;
    r.parent = remote;
    auto s = main_tracer.start("tools/call get-weather", r);
    remote_child = to_hex(s.context().span);
    start_options g;
    g.kind = span_kind::client;
    g.parent = s.context();
    auto group = main_tracer.start_group("send notifications/message", g, "mcp.session.id");
    for (int i = 0; i < 3; ++i)
      group->record("session-" + std::to_string(i), now_unix_nano(), now_unix_nano());
  }
  bool flushed = provider->force_flush(std::chrono::seconds(30));
  std::printf("{\"flushed\":%s,\"exported\":%zu,\"dropped\":%zu,\"trace\":\"%s\",\"root\":\"%s\","
              "\"child\":\"%s\",\"remoteChild\":\"%s\"}\n",
              flushed ? "true" : "false", batch ? batch->exported() : 0, batch ? batch->dropped() : 0,
              trace.c_str(), root_span.c_str(), child_span.c_str(), remote_child.c_str());
  return flushed && batch && batch->dropped() == 0 ? 0 : 1;
}

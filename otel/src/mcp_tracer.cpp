#include "cafmcp/otel/mcp_tracer.hpp"

namespace cafmcp::otel {
namespace {

span_kind kind_of(cafmcp::span_kind k) {
  switch (k) {
    case cafmcp::span_kind::server: return span_kind::server;
    case cafmcp::span_kind::client: return span_kind::client;
    case cafmcp::span_kind::producer: return span_kind::producer;
    case cafmcp::span_kind::consumer: return span_kind::consumer;
    default: return span_kind::internal;
  }
}

class mcp_span : public cafmcp::span {
public:
  explicit mcp_span(otel::span s) : span_(std::move(s)) {}
  void set_attribute(std::string_view key, cafmcp::attribute_value value) override {
    span_.set_attribute(std::string(key), std::move(value));
  }
  void set_error(std::string_view type, std::string_view description) override {
    span_.set_attribute("error.type", std::string(type));
    span_.set_status(status_code::error, std::string(description));
  }
  cafmcp::trace_context context() const override {
    return {format_traceparent(span_.context()), span_.context().tracestate};
  }

private:
  otel::span span_;
};

class mcp_tracer : public cafmcp::tracer {
public:
  explicit mcp_tracer(otel::tracer t) : tracer_(std::move(t)) {}
  std::unique_ptr<cafmcp::span> start(std::string_view name, cafmcp::span_kind kind,
                                      const cafmcp::trace_context& parent) override {
    start_options o;
    o.kind = kind_of(kind);
    if (!parent.empty())
      o.parent = parse_traceparent(parent.traceparent, parent.tracestate);
    return std::make_unique<mcp_span>(tracer_.start(std::string(name), std::move(o)));
  }

private:
  otel::tracer tracer_;
};

} // namespace

std::shared_ptr<cafmcp::tracer> make_mcp_tracer(std::shared_ptr<tracer_provider> provider,
                                                std::string scope) {
  if (!provider)
    return nullptr;
  return std::make_shared<mcp_tracer>(provider->get_tracer(std::move(scope)));
}

} // namespace cafmcp::otel

#include "cafmcp/otel/mcp_tracer.hpp"

#include <optional>

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
    if (span_.recording()) // nothing to allocate for a span nobody records
      span_.set_attribute(key, std::move(value));
  }
  void set_error(std::string_view type, std::string_view description) override {
    if (!span_.recording())
      return;
    span_.set_attribute("error.type", type);
    span_.set_status(status_code::error, std::string(description));
  }
  cafmcp::trace_context context() const override {
    return {format_traceparent(span_.context()), span_.context().tracestate};
  }

private:
  otel::span span_;
};

class mcp_send_group : public cafmcp::send_span_group {
public:
  explicit mcp_send_group(span_group_recorder r) : rec_(std::move(r)) {}
  void record(std::string_view session_id, std::uint64_t start, std::uint64_t end) override {
    rec_.record(session_id, start, end);
  }

private:
  span_group_recorder rec_;
};

class mcp_tracer : public cafmcp::tracer {
public:
  mcp_tracer(otel::tracer t, bool parent_based) : tracer_(std::move(t)), parent_based_(parent_based) {}
  std::unique_ptr<cafmcp::span> start(std::string_view name, cafmcp::span_kind kind,
                                      const cafmcp::trace_context& parent) override {
    start_options o;
    o.kind = kind_of(kind);
    if (!parent.empty())
      o.parent = parsed(parent);
    // A sampled-out child of a sampled-out parent needs no span at all: the
    // caller keeps passing the parent's context, which carries the decision.
    if (o.parent && o.parent->valid() && !o.parent->sampled() && parent_based_)
      return nullptr;
    auto s = tracer_.start(name, std::move(o));
    return std::make_unique<mcp_span>(std::move(s));
  }

  std::unique_ptr<cafmcp::send_span_group> start_send_group(std::string_view name, cafmcp::span_kind kind,
                                                            const cafmcp::trace_context& parent,
                                                            cafmcp::span_attributes common,
                                                            std::size_t sends) override {
    start_options o;
    o.kind = kind_of(kind);
    if (!parent.empty())
      o.parent = parsed(parent);
    o.attributes = std::move(common);
    auto rec = tracer_.start_group(name, std::move(o), "mcp.session.id", sends);
    if (!rec)
      return nullptr;
    return std::make_unique<mcp_send_group>(std::move(*rec));
  }

private:
  // A broadcast hands the same parent to every send: parse it once.
  static std::optional<span_context> parsed(const cafmcp::trace_context& ctx) {
    thread_local std::string last_text, last_state;
    thread_local std::optional<span_context> last;
    if (ctx.traceparent != last_text || ctx.tracestate != last_state) {
      last = parse_traceparent(ctx.traceparent, ctx.tracestate);
      last_text = ctx.traceparent;
      last_state = ctx.tracestate;
    }
    return last;
  }

  otel::tracer tracer_;
  bool parent_based_;
};

} // namespace

std::shared_ptr<cafmcp::tracer> make_mcp_tracer(std::shared_ptr<tracer_provider> provider,
                                                std::string scope) {
  if (!provider || provider->sampler().never_samples())
    return nullptr;
  return std::make_shared<mcp_tracer>(provider->get_tracer(std::move(scope)),
                                      provider->sampler().follows_parent());
}

} // namespace cafmcp::otel

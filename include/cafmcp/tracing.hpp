#pragma once
// The tracing hook the core calls around requests, mutations, broadcasts and
// every single send. cafmcp's own OpenTelemetry library (otel/) implements
// it; the default does nothing and costs one null check per call site.
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>

namespace cafmcp {

/// W3C trace context as it travels in `params._meta` and inside actor
/// messages. Empty strings: no context.
struct trace_context {
  std::string traceparent;
  std::string tracestate;
  bool empty() const noexcept { return traceparent.empty(); }
};

enum class span_kind { internal, server, client, producer, consumer };

using attribute_value = std::variant<std::string, std::int64_t, double, bool>;

class span {
public:
  virtual ~span() = default; // ends the span
  virtual void set_attribute(std::string_view key, attribute_value value) = 0;
  /// Marks the span failed: `error.type` and status description.
  virtual void set_error(std::string_view type, std::string_view description) = 0;
  /// This span as a parent for children (and for `_meta.traceparent`).
  virtual trace_context context() const = 0;
};

class tracer {
public:
  virtual ~tracer() = default;
  /// Starts a span; may return nullptr (not sampled, or tracing off).
  virtual std::unique_ptr<span> start(std::string_view name, span_kind kind,
                                      const trace_context& parent) = 0;
};

/// Starts a span when `t` is set; nullptr otherwise.
inline std::unique_ptr<span> start_span(tracer* t, std::string_view name, span_kind kind,
                                        const trace_context& parent = {}) {
  return t ? t->start(name, kind, parent) : nullptr;
}

} // namespace cafmcp

#pragma once
// The tracing hook the core calls around requests, mutations, broadcasts and
// every single send. cafmcp's own OpenTelemetry library (otel/) implements
// it; the default does nothing and costs one null check per call site.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

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

/// The sends of one broadcast: one child span per receiving session, each
/// timed around its hand-off. Recorded as plain numbers on the hot path (an
/// id, two timestamps, the session id) and expanded into full spans on the
/// exporter's thread, so a span per send stays cheap at high fan-out.
class send_span_group {
public:
  virtual ~send_span_group() = default; // the group's spans go out
  virtual void record(std::string_view session_id, std::uint64_t start_unix_nano,
                      std::uint64_t end_unix_nano) = 0;
};

using span_attributes = std::vector<std::pair<std::string, attribute_value>>;

class tracer {
public:
  virtual ~tracer() = default;
  /// Starts a span; may return nullptr (not sampled, or tracing off).
  virtual std::unique_ptr<span> start(std::string_view name, span_kind kind, const trace_context& parent) = 0;
  /// Starts a group of sibling spans under `parent`, all named `name` with
  /// the `common` attributes plus `mcp.session.id`; nullptr when not sampled.
  /// `sends`: how many will be recorded (room is made for them up front).
  virtual std::unique_ptr<send_span_group> start_send_group(std::string_view name, span_kind kind,
                                                            const trace_context& parent,
                                                            span_attributes common, std::size_t sends) = 0;
};

/// Wall-clock time in nanoseconds, as spans record it.
std::uint64_t unix_nano_now();

/// Starts a span when `t` is set; nullptr otherwise.
inline std::unique_ptr<span> start_span(tracer* t, std::string_view name, span_kind kind,
                                        const trace_context& parent = {}) {
  return t ? t->start(name, kind, parent) : nullptr;
}

/// As above, named `prefix` followed by `name`: joined only when `t` is set,
/// so a server without tracing builds no span names on its hot paths.
inline std::unique_ptr<span> start_span(tracer* t, std::string_view prefix, std::string_view name,
                                        span_kind kind, const trace_context& parent = {}) {
  if (!t)
    return nullptr;
  std::string joined;
  joined.reserve(prefix.size() + name.size());
  joined.append(prefix).append(name);
  return t->start(joined, kind, parent);
}

} // namespace cafmcp

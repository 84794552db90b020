#pragma once
// Sampling decisions, as the OpenTelemetry SDK names them.
#include <memory>
#include <string>

#include "cafmcp/otel/context.hpp"

namespace cafmcp::otel {

class sampler {
public:
  virtual ~sampler() = default;
  /// `parent` is null for a root span.
  virtual bool should_sample(const span_context* parent, const trace_id& trace) const = 0;
  virtual std::string description() const = 0;
  /// True when no span can ever be sampled, whatever the parent: callers may
  /// then skip tracing altogether (make_mcp_tracer returns nullptr).
  virtual bool never_samples() const { return false; }
  /// True when a valid parent's sampled flag decides (ParentBased).
  virtual bool follows_parent() const { return false; }
};

std::shared_ptr<sampler> always_on();
std::shared_ptr<sampler> always_off();
/// Samples a fraction of traces, decided from the trace id alone, so every
/// process of one trace decides alike. Ratios outside [0, 1] are clamped;
/// NaN counts as 1 (the SDK's default for an unusable argument).
std::shared_ptr<sampler> trace_id_ratio(double ratio);
/// Follows a parent's sampled flag; roots are decided by `root`.
std::shared_ptr<sampler> parent_based(std::shared_ptr<sampler> root);

/// From OTEL_TRACES_SAMPLER names (always_on, always_off, traceidratio,
/// parentbased_always_on, parentbased_always_off, parentbased_traceidratio);
/// nullptr for an unknown name.
std::shared_ptr<sampler> sampler_from_name(const std::string& name, const std::string& arg);

} // namespace cafmcp::otel

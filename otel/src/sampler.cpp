#include "cafmcp/otel/sampler.hpp"

#include <algorithm>
#include <cmath>

namespace cafmcp::otel {
namespace {

struct constant : sampler {
  explicit constant(bool on) : on_(on) {}
  bool should_sample(const span_context*, const trace_id&) const override { return on_; }
  std::string description() const override { return on_ ? "AlwaysOnSampler" : "AlwaysOffSampler"; }
  bool never_samples() const override { return !on_; }
  bool on_;
};

// Decided from the trace id's last 8 bytes as a number below a threshold
// (the random part of the id), so a trace is sampled the same everywhere.
struct ratio_sampler : sampler {
  explicit ratio_sampler(double r) : ratio_(std::isnan(r) ? 1.0 : std::clamp(r, 0.0, 1.0)) {
    threshold_ = ratio_ >= 1.0 ? UINT64_MAX : static_cast<std::uint64_t>(ratio_ * 18446744073709551616.0);
  }
  bool should_sample(const span_context*, const trace_id& t) const override {
    if (ratio_ <= 0.0)
      return false;
    std::uint64_t v = 0;
    for (int i = 8; i < 16; ++i)
      v = v << 8 | t[i];
    return ratio_ >= 1.0 || v < threshold_;
  }
  std::string description() const override { return "TraceIdRatioBased{" + std::to_string(ratio_) + "}"; }
  double ratio_;
  std::uint64_t threshold_;
};

struct parent_sampler : sampler {
  explicit parent_sampler(std::shared_ptr<sampler> root) : root_(std::move(root)) {}
  bool should_sample(const span_context* parent, const trace_id& t) const override {
    if (parent && parent->valid())
      return parent->sampled();
    return root_->should_sample(parent, t);
  }
  std::string description() const override { return "ParentBased{root=" + root_->description() + "}"; }
  bool follows_parent() const override { return true; }
  std::shared_ptr<sampler> root_;
};

} // namespace

std::shared_ptr<sampler> always_on() { return std::make_shared<constant>(true); }
std::shared_ptr<sampler> always_off() { return std::make_shared<constant>(false); }
std::shared_ptr<sampler> trace_id_ratio(double r) { return std::make_shared<ratio_sampler>(r); }
std::shared_ptr<sampler> parent_based(std::shared_ptr<sampler> root) {
  return std::make_shared<parent_sampler>(std::move(root));
}

std::shared_ptr<sampler> sampler_from_name(const std::string& name, const std::string& arg) {
  double ratio = 1.0;
  if (!arg.empty()) {
    try {
      std::size_t used = 0;
      ratio = std::stod(arg, &used);
      if (used != arg.size() || ratio < 0.0 || ratio > 1.0)
        ratio = 1.0;
    } catch (...) {
      ratio = 1.0; // the spec's default for an unusable argument
    }
  }
  if (name == "always_on")
    return always_on();
  if (name == "always_off")
    return always_off();
  if (name == "traceidratio")
    return trace_id_ratio(ratio);
  if (name == "parentbased_always_on")
    return parent_based(always_on());
  if (name == "parentbased_always_off")
    return parent_based(always_off());
  if (name == "parentbased_traceidratio")
    return parent_based(trace_id_ratio(ratio));
  return nullptr;
}

} // namespace cafmcp::otel

#pragma once
// Tracer provider, tracer and RAII spans, following the OpenTelemetry SDK:
// a provider holds the resource, sampler and processor; a tracer names the
// instrumentation scope; a span ends (and is handed to the processor) when
// it goes out of scope or end() is called.
#include <memory>
#include <optional>
#include <string>

#include "cafmcp/otel/exporter.hpp"
#include "cafmcp/otel/sampler.hpp"

namespace cafmcp::otel {

class tracer_provider;

class span {
public:
  span() = default; // a no-op span (not sampled, or tracing off)
  span(std::shared_ptr<const tracer_provider> provider, std::unique_ptr<span_data> data);
  span(span&&) noexcept = default;
  span& operator=(span&&) noexcept;
  ~span() { end(); }

  bool recording() const { return provider_ != nullptr; }
  const span_context& context() const { return data_ ? data_->context : empty_context(); }

  span& set_attribute(std::string key, attribute_value value);
  span& add_event(std::string name, otel::attributes attrs = {});
  span& add_link(const span_context& ctx, otel::attributes attrs = {});
  span& set_status(status_code code, std::string message = {});
  void end();

private:
  static const span_context& empty_context();
  std::shared_ptr<const tracer_provider> provider_;
  std::unique_ptr<span_data> data_;
};

/// Records a span_group; hands it to the processor when destroyed.
class span_group_recorder {
public:
  span_group_recorder(std::shared_ptr<const tracer_provider> p, std::unique_ptr<span_group> g)
    : provider_(std::move(p)), group_(std::move(g)) {}
  span_group_recorder(span_group_recorder&&) noexcept = default;
  ~span_group_recorder();
  void record(std::string_view member_value, std::uint64_t start_unix_nano, std::uint64_t end_unix_nano) {
    group_->members.push_back({random_span_id(), start_unix_nano, end_unix_nano, std::string(member_value)});
  }

private:
  std::shared_ptr<const tracer_provider> provider_;
  std::unique_ptr<span_group> group_;
};

struct start_options {
  span_kind kind = span_kind::internal;
  std::optional<span_context> parent; // none: a root span
  otel::attributes attributes;
  std::vector<span_link> links;
};

class tracer {
public:
  tracer(std::shared_ptr<const tracer_provider> p, std::string scope) : provider_(std::move(p)), scope_(std::move(scope)) {}
  /// A recording span, or a no-op one when not sampled (children still get
  /// the parent's ids through the returned context being invalid: callers
  /// pass the incoming parent on instead).
  span start(std::string name, start_options opts = {}) const;
  /// Sibling spans named `name` told apart by `member_key`; nullopt when
  /// the sampler says no.
  std::optional<span_group_recorder> start_group(std::string name, start_options opts,
                                                 std::string member_key) const;
  const std::string& scope() const { return scope_; }

private:
  std::shared_ptr<const tracer_provider> provider_;
  std::string scope_;
};

class tracer_provider : public std::enable_shared_from_this<tracer_provider> {
public:
  tracer_provider(otel::resource r, std::shared_ptr<otel::sampler> s, std::shared_ptr<span_processor> p)
    : resource_(std::move(r)), sampler_(std::move(s)), processor_(std::move(p)) {}
  ~tracer_provider();

  tracer get_tracer(std::string scope) const { return tracer(shared_from_this(), std::move(scope)); }
  const otel::resource& resource() const { return resource_; }
  const otel::sampler& sampler() const { return *sampler_; }
  span_processor& processor() const { return *processor_; }
  bool force_flush(std::chrono::milliseconds timeout = std::chrono::seconds(30)) const {
    return processor_->force_flush(timeout);
  }
  void shutdown() const;

private:
  otel::resource resource_;
  std::shared_ptr<otel::sampler> sampler_;
  std::shared_ptr<span_processor> processor_;
  mutable bool shut_down_ = false;
};

} // namespace cafmcp::otel

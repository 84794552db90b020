#pragma once
// Tracer provider, tracer and RAII spans, following the OpenTelemetry SDK:
// a provider holds the resource, sampler and processor; a tracer names the
// instrumentation scope; a span ends (and is handed to the processor) when
// it goes out of scope or end() is called.
#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "cafmcp/otel/exporter.hpp"
#include "cafmcp/otel/sampler.hpp"

namespace cafmcp::otel {

class tracer_provider;

class span {
public:
  /// A no-op span: what a disabled tracer returns, without allocating.
  span() = default;
  /// A recording span.
  span(std::shared_ptr<const tracer_provider> provider, std::unique_ptr<span_data> data);
  /// Not recorded, but carries a context (a sampled-out span's ids and its
  /// sampled=0 flag) so that children and remote peers follow the decision.
  explicit span(span_context ctx) : context_(std::move(ctx)) {}
  span(span&&) noexcept = default;
  span& operator=(span&&) noexcept;
  ~span() { end(); }

  bool recording() const { return provider_ != nullptr; }
  /// Stays readable after end().
  const span_context& context() const { return data_ ? data_->context : context_; }

  /// Replaces a value already set under `key`. Keys and string values are
  /// views, copied only when recording, so a disabled span costs no string.
  span& set_attribute(std::string_view key, attribute_value value);
  span& set_attribute(std::string_view key, std::string value) {
    return set_attribute(key, attribute_value(std::move(value)));
  }
  span& set_attribute(std::string_view key, std::string_view value);
  span& set_attribute(std::string_view key, const char* value) {
    return set_attribute(key, std::string_view(value));
  }
  span& add_event(std::string name, otel::attributes attrs = {});
  span& add_event(std::string name, std::uint64_t time_unix_nano, otel::attributes attrs = {});
  span& add_link(const span_context& ctx, otel::attributes attrs = {});
  /// As the API specification orders: `ok` is final, `unset` is ignored,
  /// and only `error` keeps a description.
  span& set_status(status_code code, std::string message = {});
  span& update_name(std::string name);
  /// Hands the span to the processor; later calls do nothing. 0: now.
  void end(std::uint64_t end_unix_nano = 0);

private:
  std::shared_ptr<const tracer_provider> provider_;
  std::unique_ptr<span_data> data_;
  span_context context_; // when not recording, and after end()
};

/// Records a span_group; hands it to the processor when destroyed.
class span_group_recorder {
public:
  span_group_recorder(std::shared_ptr<const tracer_provider> p, std::unique_ptr<span_group> g)
    : provider_(std::move(p)), group_(std::move(g)) {}
  span_group_recorder(span_group_recorder&&) noexcept = default;
  ~span_group_recorder();
  void record(std::string_view member_value, std::uint64_t start_unix_nano, std::uint64_t end_unix_nano) {
    group_->add(start_unix_nano, end_unix_nano, member_value);
  }

private:
  std::shared_ptr<const tracer_provider> provider_;
  std::unique_ptr<span_group> group_;
};

struct start_options {
  span_kind kind = span_kind::internal;
  std::optional<span_context> parent; // none (or invalid): a root span
  otel::attributes attributes;
  std::vector<span_link> links;
  std::uint64_t start_unix_nano = 0; // 0: now
};

class tracer {
public:
  /// A disabled tracer: start() returns no-op spans and allocates nothing.
  tracer() = default;
  tracer(std::shared_ptr<const tracer_provider> p, std::string scope, std::string version = {});

  bool enabled() const { return provider_ != nullptr; }
  /// A recording span when sampled; otherwise a non-recording span that
  /// still carries a valid context with the sampled flag cleared.
  span start(std::string_view name, start_options opts = {}) const;
  /// Sibling spans named `name` told apart by `member_key`; nullopt when
  /// the sampler says no.
  std::optional<span_group_recorder> start_group(std::string_view name, start_options opts,
                                                 std::string member_key,
                                                 std::size_t expected_members = 0) const;
  const std::string& scope() const;

private:
  std::shared_ptr<const tracer_provider> provider_;
  std::shared_ptr<const instrumentation_scope> scope_;
};

class tracer_provider : public std::enable_shared_from_this<tracer_provider> {
public:
  tracer_provider(otel::resource r, std::shared_ptr<otel::sampler> s, std::shared_ptr<span_processor> p)
    : resource_(std::move(r)), sampler_(std::move(s)), processor_(std::move(p)) {}
  /// Flushes and shuts the processor down (see shutdown()).
  ~tracer_provider();

  tracer get_tracer(std::string scope, std::string version = {}) const {
    return tracer(shared_from_this(), std::move(scope), std::move(version));
  }
  const otel::resource& resource() const { return resource_; }
  const otel::sampler& sampler() const { return *sampler_; }
  span_processor& processor() const { return *processor_; }
  bool force_flush(std::chrono::milliseconds timeout = std::chrono::seconds(30)) const {
    return processor_->force_flush(timeout);
  }
  /// Exports what is queued and stops the processor, within `timeout`;
  /// false when the deadline passed first. Only the first call acts.
  bool shutdown(std::chrono::milliseconds timeout = std::chrono::seconds(10)) const;

private:
  otel::resource resource_;
  std::shared_ptr<otel::sampler> sampler_;
  std::shared_ptr<span_processor> processor_;
  mutable std::atomic<bool> shut_down_{false};
};

/// The provider's tracer, or a disabled one for a null provider (which is
/// what provider_from_environment returns when tracing is off).
tracer get_tracer(const std::shared_ptr<tracer_provider>& provider, std::string scope,
                  std::string version = {});

} // namespace cafmcp::otel

#include "cafmcp/otel/tracer.hpp"

namespace cafmcp::otel {

std::uint64_t now_unix_nano() {
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                      std::chrono::system_clock::now().time_since_epoch())
                                      .count());
}

span::span(std::shared_ptr<const tracer_provider> provider, std::unique_ptr<span_data> data)
  : provider_(std::move(provider)), data_(std::move(data)) {}

const span_context& span::empty_context() {
  static const span_context none;
  return none;
}

span& span::operator=(span&& other) noexcept {
  if (this != &other) {
    end();
    provider_ = std::move(other.provider_);
    data_ = std::move(other.data_);
  }
  return *this;
}

span& span::set_attribute(std::string key, attribute_value value) {
  if (provider_) {
    for (auto& [k, v] : data_->attributes)
      if (k == key) {
        v = std::move(value);
        return *this;
      }
    data_->attributes.emplace_back(std::move(key), std::move(value));
  }
  return *this;
}

span& span::add_event(std::string name, otel::attributes attrs) {
  if (provider_)
    data_->events.push_back({now_unix_nano(), std::move(name), std::move(attrs)});
  return *this;
}

span& span::add_link(const span_context& ctx, otel::attributes attrs) {
  if (provider_)
    data_->links.push_back({ctx, std::move(attrs)});
  return *this;
}

span& span::set_status(status_code code, std::string message) {
  if (provider_ && data_->status != status_code::ok) { // ok is final, per the API spec
    data_->status = code;
    data_->status_message = code == status_code::error ? std::move(message) : std::string();
  }
  return *this;
}

void span::end() {
  if (!provider_)
    return;
  data_->end_unix_nano = now_unix_nano();
  auto provider = std::move(provider_);
  provider_.reset();
  provider->processor().on_end(std::move(data_));
}

span tracer::start(std::string name, start_options opts) const {
  const span_context* parent = opts.parent && opts.parent->valid() ? &*opts.parent : nullptr;
  auto owned = std::make_unique<span_data>();
  span_data& d = *owned;
  d.context.trace = parent ? parent->trace : random_trace_id();
  d.context.span = random_span_id();
  d.context.tracestate = parent ? parent->tracestate : std::string();
  bool sampled = provider_->sampler().should_sample(parent, d.context.trace);
  d.context.flags = sampled ? 1 : 0;
  if (!sampled) // not recording, but its context carries the decision onwards
    return span(nullptr, std::move(owned));
  if (parent) {
    d.parent = parent->span;
    d.parent_remote = parent->remote;
  }
  d.name = std::move(name);
  d.kind = opts.kind;
  d.start_unix_nano = now_unix_nano();
  d.attributes = std::move(opts.attributes);
  d.attributes.reserve(8);
  d.links = std::move(opts.links);
  return span(provider_, std::move(owned));
}

std::optional<span_group_recorder> tracer::start_group(std::string name, start_options opts,
                                                      std::string member_key) const {
  const span_context* parent = opts.parent && opts.parent->valid() ? &*opts.parent : nullptr;
  auto g = std::make_unique<span_group>();
  auto& d = g->common;
  d.context.trace = parent ? parent->trace : random_trace_id();
  if (!provider_->sampler().should_sample(parent, d.context.trace))
    return std::nullopt;
  d.context.flags = 1;
  if (parent) {
    d.context.tracestate = parent->tracestate;
    d.parent = parent->span;
    d.parent_remote = parent->remote;
  }
  d.name = std::move(name);
  d.kind = opts.kind;
  d.attributes = std::move(opts.attributes);
  g->member_key = std::move(member_key);
  return span_group_recorder(provider_, std::move(g));
}

span_group_recorder::~span_group_recorder() {
  if (group_ && provider_)
    provider_->processor().on_end(std::move(group_));
}

tracer_provider::~tracer_provider() { shutdown(); }

void tracer_provider::shutdown() const {
  if (shut_down_)
    return;
  shut_down_ = true;
  processor_->force_flush(std::chrono::seconds(10));
  processor_->shutdown();
}

} // namespace cafmcp::otel

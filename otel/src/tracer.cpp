#include "cafmcp/otel/tracer.hpp"

namespace cafmcp::otel {

span::span(std::shared_ptr<const tracer_provider> provider, std::unique_ptr<span_data> data)
  : provider_(std::move(provider)), data_(std::move(data)) {}

span& span::operator=(span&& other) noexcept {
  if (this != &other) {
    end();
    provider_ = std::move(other.provider_);
    data_ = std::move(other.data_);
    context_ = std::move(other.context_);
  }
  return *this;
}

span& span::set_attribute(std::string_view key, attribute_value value) {
  if (provider_) {
    for (auto& [k, v] : data_->attributes)
      if (k == key) {
        v = std::move(value);
        return *this;
      }
    data_->attributes.emplace_back(std::string(key), std::move(value));
  }
  return *this;
}

span& span::set_attribute(std::string_view key, std::string_view value) {
  return provider_ ? set_attribute(key, attribute_value(std::string(value))) : *this;
}

span& span::add_event(std::string name, otel::attributes attrs) {
  return provider_ ? add_event(std::move(name), now_unix_nano(), std::move(attrs)) : *this;
}

span& span::add_event(std::string name, std::uint64_t time_unix_nano, otel::attributes attrs) {
  if (provider_)
    data_->events.push_back({time_unix_nano, std::move(name), std::move(attrs)});
  return *this;
}

span& span::add_link(const span_context& ctx, otel::attributes attrs) {
  if (provider_ && ctx.valid()) // the SDK drops links to nothing
    data_->links.push_back({ctx, std::move(attrs)});
  return *this;
}

span& span::set_status(status_code code, std::string message) {
  if (!provider_ || code == status_code::unset || data_->status == status_code::ok)
    return *this;
  data_->status = code;
  data_->status_message = code == status_code::error ? std::move(message) : std::string();
  return *this;
}

span& span::update_name(std::string name) {
  if (provider_)
    data_->name = std::move(name);
  return *this;
}

void span::end(std::uint64_t end_unix_nano) {
  if (!provider_)
    return;
  data_->end_unix_nano = end_unix_nano ? end_unix_nano : now_unix_nano();
  if (data_->end_unix_nano < data_->start_unix_nano) // a clock step must not yield a negative span
    data_->end_unix_nano = data_->start_unix_nano;
  context_ = data_->context;
  auto provider = std::move(provider_);
  provider->processor().on_end(std::move(data_));
}

tracer::tracer(std::shared_ptr<const tracer_provider> p, std::string scope, std::string version)
  : provider_(std::move(p)), scope_(std::make_shared<const instrumentation_scope>(
                               instrumentation_scope{std::move(scope), std::move(version)})) {}

const std::string& tracer::scope() const {
  static const std::string none;
  return scope_ ? scope_->name : none;
}

span tracer::start(std::string_view name, start_options opts) const {
  if (!provider_)
    return span();
  const span_context* parent = opts.parent && opts.parent->valid() ? &*opts.parent : nullptr;
  span_context ctx;
  ctx.trace = parent ? parent->trace : random_trace_id();
  ctx.span = random_span_id();
  if (!provider_->sampler().should_sample(parent, ctx.trace)) {
    // Not recorded, and not allocated: the context alone carries the
    // decision (and the parent's tracestate) on to children and peers.
    if (parent)
      ctx.tracestate = parent->tracestate;
    return span(std::move(ctx));
  }
  ctx.flags = 1;
  auto d = std::make_unique<span_data>();
  d->context = std::move(ctx);
  if (parent) {
    d->context.tracestate = parent->tracestate;
    d->parent = parent->span;
    d->parent_remote = parent->remote;
  }
  d->name = std::string(name);
  d->kind = opts.kind;
  d->start_unix_nano = opts.start_unix_nano ? opts.start_unix_nano : now_unix_nano();
  d->attributes = std::move(opts.attributes);
  d->attributes.reserve(d->attributes.size() + 8); // the usual few set_attribute calls
  d->links = std::move(opts.links);
  d->scope = scope_;
  return span(provider_, std::move(d));
}

std::optional<span_group_recorder> tracer::start_group(std::string_view name, start_options opts,
                                                       std::string member_key,
                                                       std::size_t expected_members) const {
  if (!provider_)
    return std::nullopt;
  const span_context* parent = opts.parent && opts.parent->valid() ? &*opts.parent : nullptr;
  auto trace = parent ? parent->trace : random_trace_id();
  if (!provider_->sampler().should_sample(parent, trace))
    return std::nullopt;
  auto g = std::make_unique<span_group>();
  auto& d = g->common;
  d.context.trace = trace;
  d.context.flags = 1;
  if (parent) {
    d.context.tracestate = parent->tracestate;
    d.parent = parent->span;
    d.parent_remote = parent->remote;
  }
  d.name = std::string(name);
  d.kind = opts.kind;
  d.attributes = std::move(opts.attributes);
  d.links = std::move(opts.links);
  d.scope = scope_;
  g->member_key = std::move(member_key);
  g->reserve(expected_members); // no regrowth (copying, freeing) while a broadcast records
  return span_group_recorder(provider_, std::move(g));
}

span_group_recorder::~span_group_recorder() {
  if (group_ && provider_)
    provider_->processor().on_end(std::move(group_));
}

tracer_provider::~tracer_provider() { shutdown(); }

bool tracer_provider::shutdown(std::chrono::milliseconds timeout) const {
  if (shut_down_.exchange(true))
    return true;
  return processor_->shutdown(timeout); // a processor exports what it holds before stopping
}

tracer get_tracer(const std::shared_ptr<tracer_provider>& provider, std::string scope, std::string version) {
  return provider ? provider->get_tracer(std::move(scope), std::move(version)) : tracer();
}

} // namespace cafmcp::otel

#include "cafmcp/otel/otlp_protobuf.hpp"

#include <cstring>

#include "member_span_ids.hpp"
#include "protobuf_writer.hpp"
#include "scoped_spans.hpp"

namespace cafmcp::otel {
namespace {

using namespace detail::protobuf;

// Field numbers of opentelemetry-proto v1.
namespace request {
constexpr int resource_spans = 1;
}
namespace resource_spans {
constexpr int resource = 1, scope_spans = 2;
}
namespace scope_spans {
constexpr int scope = 1, spans = 2;
}
namespace span {
constexpr int trace_id = 1, span_id = 2, trace_state = 3, parent_span_id = 4, name = 5, kind = 6,
              start_time = 7, end_time = 8, attributes = 9, events = 11, links = 13, status = 15, flags = 16;
}
namespace event {
constexpr int time = 1, name = 2, attributes = 3;
}
namespace link {
constexpr int trace_id = 1, span_id = 2, trace_state = 3, attributes = 4, flags = 6;
}
namespace status {
constexpr int message = 2, code = 3;
}
// Low 8 bits: the W3C trace flags; 0x100 says 0x200 (parent or linked
// context is remote) is meaningful (as in the JSON encoding).
std::uint32_t flags_of(const span_context& ctx, bool remote) {
  return static_cast<std::uint32_t>(ctx.flags) | 0x100u | (remote ? 0x200u : 0u);
}

// Every field a group's members share: all but span id, times and the
// member's own attribute.
void put_shared_fields(std::string& out, const span_data& s) {
  put_bytes(out, span::trace_id, s.context.trace.data(), s.context.trace.size());
  if (!s.context.tracestate.empty())
    put_string(out, span::trace_state, s.context.tracestate);
  if (is_valid(s.parent))
    put_bytes(out, span::parent_span_id, s.parent.data(), s.parent.size());
  put_string(out, span::name, s.name);
  put_tag(out, span::kind, varint);
  put_varint(out, static_cast<std::uint64_t>(s.kind));
  put_attributes(out, span::attributes, s.attributes);
  for (auto& e : s.events) {
    nested ev(out, span::events);
    put_fixed64(out, event::time, e.time_unix_nano);
    put_string(out, event::name, e.name);
    put_attributes(out, event::attributes, e.attributes);
  }
  for (auto& l : s.links) {
    nested ln(out, span::links);
    put_bytes(out, link::trace_id, l.context.trace.data(), l.context.trace.size());
    put_bytes(out, link::span_id, l.context.span.data(), l.context.span.size());
    if (!l.context.tracestate.empty())
      put_string(out, link::trace_state, l.context.tracestate);
    put_attributes(out, link::attributes, l.attributes);
    put_fixed32(out, link::flags, flags_of(l.context, l.context.remote));
  }
  if (s.status != status_code::unset || !s.status_message.empty()) {
    nested st(out, span::status);
    if (!s.status_message.empty())
      put_string(out, status::message, s.status_message);
    put_tag(out, status::code, varint);
    put_varint(out, static_cast<std::uint64_t>(s.status));
  }
  put_fixed32(out, span::flags, flags_of(s.context, s.parent_remote));
}

void put_span(std::string& out, std::string& scratch, const span_data& s) {
  scratch.clear();
  put_shared_fields(scratch, s);
  put_bytes(scratch, span::span_id, s.context.span.data(), s.context.span.size());
  put_fixed64(scratch, span::start_time, s.start_unix_nano);
  put_fixed64(scratch, span::end_time, s.end_unix_nano);
  put_bytes(out, scope_spans::spans, scratch.data(), scratch.size());
}

// A group's members: the shared fields are encoded once; each member is
// that, plus its span id, times and attribute, behind a length computed
// up front (no scratch copy per member).
class group_encoder {
public:
  explicit group_encoder(const span_group& g) : g_(g) {
    put_shared_fields(shared_, g.common);
    key_.clear();
    put_string(key_, key_value::key, g.member_key);
  }

  /// The member as ScopeSpans.spans: tag, length, Span.
  std::size_t field_size(const span_group::member& m) const {
    auto n = sizes_of(g_.value(m)).span;
    return 1 + varint_size(n) + n;
  }

  /// The member, written into room made for it at the end of `out` (its
  /// size is known before a byte is written).
  void append(std::string& out, const span_group::member& m) {
    auto value = g_.value(m);
    auto sizes = sizes_of(value);
    auto at = out.size();
    out.resize(at + 1 + varint_size(sizes.span) + sizes.span);
    char* p = out.data() + at;
    p = write_tag(p, scope_spans::spans, length);
    p = write_varint(p, sizes.span);
    std::memcpy(p, shared_.data(), shared_.size());
    p += shared_.size();
    auto id = ids_.next();
    p = write_bytes(p, span::span_id, id.data(), id.size());
    p = write_fixed64(p, span::start_time, m.start_unix_nano);
    p = write_fixed64(p, span::end_time, m.end_unix_nano);
    p = write_tag(p, span::attributes, length);
    p = write_varint(p, sizes.kv);
    std::memcpy(p, key_.data(), key_.size());
    p += key_.size();
    p = write_tag(p, key_value::value, length);
    p = write_varint(p, sizes.any);
    write_bytes(p, any_value::string_value, value.data(), value.size());
  }

private:
  struct sizes {
    std::size_t any, kv, span;
  };
  // AnyValue{string_value}, KeyValue{key, value}, then the whole Span.
  sizes sizes_of(std::string_view value) const {
    std::size_t any = 1 + varint_size(value.size()) + value.size();
    std::size_t kv = key_.size() + 1 + varint_size(any) + any;
    std::size_t span = shared_.size() + (1 + 1 + 8) + 2 * (1 + 8) + (1 + varint_size(kv) + kv);
    return {any, kv, span};
  }

  const span_group& g_;
  std::string shared_, key_;
  detail::member_span_ids ids_;
};

std::size_t field_size(std::size_t content) { return 1 + varint_size(content) + content; }

void put_header(std::string& out, int field, std::size_t content) {
  put_tag(out, field, length);
  put_varint(out, content);
}

// Sizes first, bytes second: every length is known before its message is
// written, so nothing is moved afterwards (a batch is hundreds of
// kilobytes). A scope's own message and its single spans are small and
// encoded up front; its groups' members are sized by arithmetic.
void encode(std::string& body, const resource& res, const std::string& default_scope,
            const std::vector<span_data>& spans, const std::vector<std::unique_ptr<span_group>>& groups) {
  auto scopes = detail::by_scope(default_scope, spans, groups);
  struct plan {
    std::string head; // ScopeSpans.scope, then each single span as ScopeSpans.spans
    std::vector<group_encoder> groups;
    std::size_t size = 0; // the ScopeSpans message
  };
  std::vector<plan> plans;
  plans.reserve(scopes.size());
  std::string resource_msg, scratch;
  put_attributes(resource_msg, resource_msg::attributes, res.attributes);
  std::size_t resource_spans_size = field_size(resource_msg.size());
  for (auto& sc : scopes) {
    auto& p = plans.emplace_back();
    scratch.clear();
    put_string(scratch, scope_msg::name, *sc.name);
    if (!sc.version->empty())
      put_string(scratch, scope_msg::version, *sc.version);
    put_bytes(p.head, scope_spans::scope, scratch.data(), scratch.size());
    for (auto* s : sc.spans)
      put_span(p.head, scratch, *s);
    p.size = p.head.size();
    for (auto* g : sc.groups) {
      auto& enc = p.groups.emplace_back(*g);
      for (auto& m : g->members)
        p.size += enc.field_size(m);
    }
    resource_spans_size += field_size(p.size);
  }
  body.clear();
  body.reserve(field_size(resource_spans_size));
  put_header(body, request::resource_spans, resource_spans_size);
  put_bytes(body, resource_spans::resource, resource_msg.data(), resource_msg.size());
  for (std::size_t i = 0; i < scopes.size(); ++i) {
    auto& p = plans[i];
    put_header(body, resource_spans::scope_spans, p.size);
    body += p.head;
    for (std::size_t k = 0; k < p.groups.size(); ++k)
      for (auto& m : scopes[i].groups[k]->members)
        p.groups[k].append(body, m);
  }
}

// A protobuf reader for the response: just enough to find partial_success.
struct reader {
  std::string_view in;
  bool ok = true;
  std::uint64_t read_varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (in.empty())
        break;
      auto b = static_cast<unsigned char>(in.front());
      in.remove_prefix(1);
      v |= static_cast<std::uint64_t>(b & 0x7f) << shift;
      if (!(b & 0x80))
        return v;
    }
    ok = false;
    return 0;
  }
  std::string_view bytes() {
    auto n = read_varint();
    if (!ok || n > in.size()) {
      ok = false;
      return {};
    }
    auto v = in.substr(0, n);
    in.remove_prefix(n);
    return v;
  }
  void skip(std::uint32_t w) {
    switch (w) {
      case varint: read_varint(); return;
      case fixed64:
        if (in.size() < 8)
          ok = false;
        else
          in.remove_prefix(8);
        return;
      case length: bytes(); return;
      case fixed32:
        if (in.size() < 4)
          ok = false;
        else
          in.remove_prefix(4);
        return;
      default: ok = false;
    }
  }
};

} // namespace

void encode_otlp_protobuf(std::string& into, const resource& res, const std::string& default_scope,
                          const span_batch& batch) {
  encode(into, res, default_scope, batch.spans, batch.groups);
}

std::string encode_otlp_protobuf(const resource& res, const std::string& default_scope,
                                 const std::vector<span_data>& spans) {
  std::string body;
  encode(body, res, default_scope, spans, {});
  return body;
}

std::optional<partial_success> decode_otlp_protobuf_response(std::string_view body) {
  reader r{body};
  std::optional<partial_success> found;
  while (r.ok && !r.in.empty()) {
    auto tag = r.read_varint();
    auto w = static_cast<std::uint32_t>(tag & 7);
    if (r.ok && (tag >> 3) == 1 && w == length) { // partial_success
      reader p{r.bytes()};
      partial_success ps;
      while (r.ok && p.ok && !p.in.empty()) {
        auto t = p.read_varint();
        auto pw = static_cast<std::uint32_t>(t & 7);
        if ((t >> 3) == 1 && pw == varint)
          ps.rejected_spans = static_cast<std::int64_t>(p.read_varint());
        else if ((t >> 3) == 2 && pw == length)
          ps.error_message = std::string(p.bytes());
        else
          p.skip(pw);
      }
      if (!p.ok)
        return std::nullopt;
      found = std::move(ps);
    } else {
      r.skip(w);
    }
  }
  if (!r.ok)
    return std::nullopt;
  return found;
}

} // namespace cafmcp::otel

#include "cafmcp/otel/otlp_json.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

namespace cafmcp::otel {
namespace {

using json = nlohmann::json;

json double_json(double x) {
  // Proto3's JSON mapping spells the non-finite values as strings; a bare
  // NaN would come out as null, which no receiver accepts.
  if (std::isnan(x))
    return "NaN";
  if (std::isinf(x))
    return x > 0 ? "Infinity" : "-Infinity";
  return x;
}

json any_value(const attribute_value& v) {
  return std::visit(
    [](const auto& x) -> json {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, std::string>)
        return {{"stringValue", x}};
      else if constexpr (std::is_same_v<T, bool>)
        return {{"boolValue", x}};
      else if constexpr (std::is_same_v<T, std::int64_t>)
        return {{"intValue", std::to_string(x)}}; // beyond 2^53 JSON numbers lose digits
      else
        return {{"doubleValue", double_json(x)}};
    },
    v);
}

json attributes_json(const attributes& attrs) {
  json out = json::array();
  for (auto& [k, v] : attrs)
    out.push_back({{"key", k}, {"value", any_value(v)}});
  return out;
}

// Low 8 bits: the W3C trace flags; 0x100 says 0x200 (parent or linked
// context is remote) is meaningful.
int flags_json(const span_context& ctx, bool remote) { return ctx.flags | 0x100 | (remote ? 0x200 : 0); }

json span_json(const span_data& s) {
  json j = {{"traceId", to_hex(s.context.trace)},
            {"spanId", to_hex(s.context.span)},
            {"name", s.name},
            {"kind", static_cast<int>(s.kind)},
            {"startTimeUnixNano", std::to_string(s.start_unix_nano)},
            {"endTimeUnixNano", std::to_string(s.end_unix_nano)},
            {"attributes", attributes_json(s.attributes)},
            {"flags", flags_json(s.context, s.parent_remote)},
            {"status", {{"code", static_cast<int>(s.status)}}}};
  if (is_valid(s.parent))
    j["parentSpanId"] = to_hex(s.parent);
  if (!s.context.tracestate.empty())
    j["traceState"] = s.context.tracestate;
  if (!s.status_message.empty())
    j["status"]["message"] = s.status_message;
  if (!s.events.empty()) {
    json events = json::array();
    for (auto& e : s.events)
      events.push_back({{"timeUnixNano", std::to_string(e.time_unix_nano)},
                        {"name", e.name},
                        {"attributes", attributes_json(e.attributes)}});
    j["events"] = std::move(events);
  }
  if (!s.links.empty()) {
    json links = json::array();
    for (auto& l : s.links) {
      json link = {{"traceId", to_hex(l.context.trace)},
                   {"spanId", to_hex(l.context.span)},
                   {"attributes", attributes_json(l.attributes)},
                   {"flags", flags_json(l.context, l.context.remote)}};
      if (!l.context.tracestate.empty())
        link["traceState"] = l.context.tracestate;
      links.push_back(std::move(link));
    }
    j["links"] = std::move(links);
  }
  return j;
}

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// A JSON string literal. Session ids and the like need no escaping: they
// are appended as they are; anything else goes through the library.
void append_string(std::string& out, std::string_view v) {
  bool plain = std::all_of(v.begin(), v.end(), [](char c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; });
  if (!plain) {
    out += dump(json(std::string(v)));
    return;
  }
  out += '"';
  out += v;
  out += '"';
}

void append_number_string(std::string& out, std::uint64_t n) {
  char buf[24];
  auto end = std::to_chars(buf, buf + sizeof buf, n).ptr;
  out += '"';
  out.append(buf, end);
  out += '"';
}

// A group's members as OTLP spans. What they share is encoded once; per
// member only the span id, the times and the member's attribute are
// written, so encoding a broadcast's sends costs a few appends each.
class group_encoder {
public:
  explicit group_encoder(const span_group& g) : g_(g) {
    json rest = span_json(g.common);
    for (auto* key : {"spanId", "startTimeUnixNano", "endTimeUnixNano", "attributes"})
      rest.erase(key);
    rest_ = dump(rest);
    rest_ = rest_.substr(1, rest_.size() - 2); // the members, without braces
    attributes_open_ = dump(attributes_json(g.common.attributes));
    attributes_open_.pop_back(); // "]": the member's attribute follows
    if (!g.common.attributes.empty())
      attributes_open_ += ',';
    attributes_open_ += "{\"key\":";
    append_string(attributes_open_, g.member_key);
    attributes_open_ += ",\"value\":{\"stringValue\":";
  }

  /// About what one member takes (its value aside), to reserve for all.
  std::size_t member_size() const { return rest_.size() + attributes_open_.size() + 120; }

  void append(std::string& out, const span_group::member& m) const {
    static constexpr char digits[] = "0123456789abcdef";
    char id[16];
    auto bytes = random_span_id();
    for (std::size_t i = 0; i < bytes.size(); ++i) {
      id[2 * i] = digits[bytes[i] >> 4];
      id[2 * i + 1] = digits[bytes[i] & 0xf];
    }
    out += "{\"spanId\":\"";
    out.append(id, sizeof id);
    out += "\",\"startTimeUnixNano\":";
    append_number_string(out, m.start_unix_nano);
    out += ",\"endTimeUnixNano\":";
    append_number_string(out, m.end_unix_nano);
    out += ",\"attributes\":";
    out += attributes_open_;
    append_string(out, g_.value(m));
    out += "}}]";
    if (!rest_.empty()) {
      out += ',';
      out += rest_;
    }
    out += '}';
  }

private:
  const span_group& g_;
  std::string rest_;
  std::string attributes_open_;
};

std::string encode(const resource& res, const std::string& default_scope, const std::vector<span_data>& spans,
                   const std::vector<std::unique_ptr<span_group>>& groups) {
  // Scopes in order of first appearance; a process has a handful, so a
  // linear search beats a map. A first pass sorts spans and groups into
  // their scopes; the second writes each straight into the body (a
  // broadcast's group is hundreds of kilobytes: written once, not copied).
  struct scope_items {
    const std::string* name;
    const std::string* version;
    std::vector<const span_data*> spans;
    std::vector<const span_group*> groups;
  };
  static const std::string no_version;
  std::vector<scope_items> scopes;
  auto scope_of = [&](const span_data& s) -> scope_items& {
    const std::string* name = s.scope ? &s.scope->name : &default_scope;
    const std::string* version = s.scope ? &s.scope->version : &no_version;
    auto it = std::find_if(scopes.begin(), scopes.end(),
                           [&](const scope_items& g) { return *g.name == *name && *g.version == *version; });
    if (it == scopes.end())
      it = scopes.insert(scopes.end(), scope_items{name, version, {}, {}});
    return *it;
  };
  for (auto& s : spans)
    scope_of(s).spans.push_back(&s);
  for (auto& g : groups)
    if (!g->members.empty())
      scope_of(g->common).groups.push_back(g.get());
  std::string body = "{\"resourceSpans\":[{\"resource\":";
  body += dump(json{{"attributes", attributes_json(res.attributes)}});
  body += ",\"scopeSpans\":[";
  for (std::size_t i = 0; i < scopes.size(); ++i) {
    auto& sc = scopes[i];
    json scope = {{"name", *sc.name}};
    if (!sc.version->empty())
      scope["version"] = *sc.version;
    if (i > 0)
      body += ',';
    body += "{\"scope\":" + dump(scope) + ",\"spans\":[";
    bool first = true;
    auto next = [&] {
      if (!first)
        body += ',';
      first = false;
    };
    for (auto* s : sc.spans) {
      next();
      body += dump(span_json(*s));
    }
    for (auto* g : sc.groups) {
      group_encoder enc(*g);
      body.reserve(body.size() + g->members.size() * enc.member_size() + g->values.size());
      for (auto& m : g->members) {
        next();
        enc.append(body, m);
      }
    }
    body += "]}";
  }
  body += "]}]}";
  return body;
}

} // namespace

std::string encode_otlp_json(const resource& res, const std::string& default_scope,
                             const std::vector<span_data>& spans) {
  return encode(res, default_scope, spans, {});
}

std::string encode_otlp_json(const resource& res, const std::string& default_scope, const span_batch& batch) {
  return encode(res, default_scope, batch.spans, batch.groups);
}

} // namespace cafmcp::otel

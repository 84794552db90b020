#include "cafmcp/otel/otlp_json.hpp"

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

} // namespace

std::string encode_otlp_json(const resource& res, const std::string& default_scope,
                             const std::vector<span_data>& spans) {
  // Scopes in order of first appearance; a process has a handful, so a
  // linear search beats a map.
  struct group {
    const std::string* name;
    const std::string* version;
    json spans = json::array();
  };
  static const std::string no_version;
  std::vector<group> groups;
  for (auto& s : spans) {
    const std::string* name = s.scope ? &s.scope->name : &default_scope;
    const std::string* version = s.scope ? &s.scope->version : &no_version;
    auto it = std::find_if(groups.begin(), groups.end(),
                           [&](const group& g) { return *g.name == *name && *g.version == *version; });
    if (it == groups.end())
      it = groups.insert(groups.end(), group{name, version});
    it->spans.push_back(span_json(s));
  }
  json scope_spans = json::array();
  for (auto& g : groups) {
    json scope = {{"name", *g.name}};
    if (!g.version->empty())
      scope["version"] = *g.version;
    scope_spans.push_back({{"scope", std::move(scope)}, {"spans", std::move(g.spans)}});
  }
  json body = {{"resourceSpans",
                json::array({{{"resource", {{"attributes", attributes_json(res.attributes)}}},
                              {"scopeSpans", std::move(scope_spans)}}})}};
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace cafmcp::otel

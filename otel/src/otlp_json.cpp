#include <nlohmann/json.hpp>

#include "cafmcp/otel/otlp.hpp"

namespace cafmcp::otel {
namespace {

using json = nlohmann::json;

json any_value(const attribute_value& v) {
  return std::visit(
    [](const auto& x) -> json {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, std::string>)
        return {{"stringValue", x}};
      else if constexpr (std::is_same_v<T, bool>)
        return {{"boolValue", x}};
      else if constexpr (std::is_same_v<T, std::int64_t>)
        return {{"intValue", std::to_string(x)}}; // int64 as a decimal string
      else
        return {{"doubleValue", x}};
    },
    v);
}

json attributes_json(const attributes& attrs) {
  json out = json::array();
  for (auto& [k, v] : attrs)
    out.push_back({{"key", k}, {"value", any_value(v)}});
  return out;
}

json span_json(const span_data& s) {
  json j = {{"traceId", to_hex(s.context.trace)},
            {"spanId", to_hex(s.context.span)},
            {"name", s.name},
            {"kind", static_cast<int>(s.kind)},
            {"startTimeUnixNano", std::to_string(s.start_unix_nano)},
            {"endTimeUnixNano", std::to_string(s.end_unix_nano)},
            {"attributes", attributes_json(s.attributes)},
            {"flags", s.context.flags | 0x100 | (s.parent_remote ? 0x200 : 0)},
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
                   {"flags", l.context.flags | 0x100 | (l.context.remote ? 0x200 : 0)}};
      if (!l.context.tracestate.empty())
        link["traceState"] = l.context.tracestate;
      links.push_back(std::move(link));
    }
    j["links"] = std::move(links);
  }
  return j;
}

} // namespace

std::string encode_otlp_json(const resource& res, const std::string& scope,
                             const std::vector<span_data>& spans) {
  json list = json::array();
  for (auto& s : spans)
    list.push_back(span_json(s));
  json body = {{"resourceSpans",
                {{{"resource", {{"attributes", attributes_json(res.attributes)}}},
                  {"scopeSpans",
                   {{{"scope", {{"name", scope}, {"version", "0.1.0"}}}, {"spans", std::move(list)}}}}}}}};
  return body.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace cafmcp::otel

#include "check/shape.hpp"

namespace cafmcp::check {

std::optional<std::string> notification_shape_problem(const json& m) {
  if (!m.is_object())
    return "not a JSON object: " + m.dump();
  if (m.contains("cafmcp-check/unparsable"))
    return "not JSON: " + m["cafmcp-check/unparsable"].get<std::string>();
  if (m.value("jsonrpc", json()) != "2.0")
    return "jsonrpc is not \"2.0\"";
  if (!m.contains("method") || !m["method"].is_string())
    return "method is not a string";
  if (m.contains("id"))
    return "a notification carries an id (" + m["id"].dump() + ")";
  if (m.contains("params") && !m["params"].is_object())
    return "params is " + std::string(m["params"].type_name()) + ", not an object";
  for (auto& [k, v] : m.items())
    if (k != "jsonrpc" && k != "method" && k != "params")
      return "unknown top-level member \"" + k + "\"";
  return std::nullopt;
}

bool has_operation_metadata(const json& m) {
  if (!m.is_object() || !m.contains("params") || !m["params"].is_object())
    return false;
  auto& p = m["params"];
  if (p.contains("operation") && p["operation"].is_string())
    return true;
  return p.contains("_meta") && p["_meta"].is_object() && p["_meta"].contains("io.cafmcp/change");
}

bool mentions(const json& m, const std::string& key) {
  if (!m.is_object() || !m.contains("params"))
    return false;
  return m["params"].dump().find(json(key).dump()) != std::string::npos;
}

} // namespace cafmcp::check

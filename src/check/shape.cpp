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

// A scan, not std::regex, which recursed once per digit of the fraction:
// a server sending a megabyte of them overflowed cafmcp-check's stack.
bool is_date_time(std::string_view s) {
  auto digits = [&](std::size_t at, std::size_t n) {
    if (at + n > s.size())
      return false;
    for (std::size_t i = at; i < at + n; ++i)
      if (s[i] < '0' || s[i] > '9')
        return false;
    return true;
  };
  auto is = [&](std::size_t at, char c) { return at < s.size() && s[at] == c; };
  if (!(digits(0, 4) && is(4, '-') && digits(5, 2) && is(7, '-') && digits(8, 2) && is(10, 'T') && digits(11, 2)
        && is(13, ':') && digits(14, 2) && is(16, ':') && digits(17, 2)))
    return false;
  std::size_t i = 19;
  if (is(i, '.')) {
    std::size_t end = i + 1;
    while (digits(end, 1))
      ++end;
    if (end == i + 1)
      return false;
    i = end;
  }
  if (is(i, 'Z'))
    return i + 1 == s.size();
  return (is(i, '+') || is(i, '-')) && digits(i + 1, 2) && is(i + 3, ':') && digits(i + 4, 2) && i + 6 == s.size();
}

} // namespace cafmcp::check

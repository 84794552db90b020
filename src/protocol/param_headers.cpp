#include "protocol/param_headers.hpp"

#include <cctype>
#include <cmath>

#include "foundation/ascii_case.hpp"
#include "foundation/base64.hpp"

namespace cafmcp::protocol {

namespace {

std::string lower(std::string s) {
  for (auto& ch : s)
    ch = ascii_lower(ch);
  return s;
}

bool strict_base64(std::string_view b) {
  if (b.empty() || b.size() % 4 != 0)
    return false;
  auto pad = b.find('=');
  if (pad != std::string_view::npos) {
    if (b.size() - pad > 2)
      return false;
    for (auto i = pad; i < b.size(); ++i)
      if (b[i] != '=')
        return false;
  }
  for (auto i = 0u; i < (pad == std::string_view::npos ? b.size() : pad); ++i) {
    char c = b[i];
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '+' && c != '/')
      return false;
  }
  return true;
}

jsonrpc::error mismatch(std::string message) {
  return {jsonrpc::code::header_mismatch, "Header mismatch: " + std::move(message), std::nullopt};
}

// The body's value as header text would carry it, for comparison.
std::optional<std::string> body_text(const json& v) {
  if (v.is_string())
    return v.get<std::string>();
  if (v.is_boolean())
    return v.get<bool>() ? "true" : "false";
  if (v.is_number_integer())
    return v.dump();
  if (v.is_number_float()) {
    double d = v.get<double>();
    if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 9007199254740992.0)
      return std::to_string(static_cast<long long>(d));
    return v.dump();
  }
  return std::nullopt;
}

bool agrees(const json& body, const std::string& header) {
  if (body.is_number()) { // 42 and 42.0 are one number
    char* end = nullptr;
    double h = std::strtod(header.c_str(), &end);
    return end && *end == '\0' && !header.empty() && h == body.get<double>();
  }
  auto text = body_text(body);
  return text && *text == header;
}

std::optional<jsonrpc::error> walk(const json& schema, const json& args, const param_headers& headers) {
  if (!schema.is_object() || !args.is_object())
    return std::nullopt;
  auto props = schema.find("properties");
  if (props == schema.end() || !props->is_object())
    return std::nullopt;
  for (auto& [name, prop] : props->items()) {
    if (!prop.is_object())
      continue;
    auto arg = args.find(name);
    if (arg == args.end() || arg->is_null())
      continue; // nothing in the body: no header expected
    if (auto h = prop.find("x-mcp-header"); h != prop.end() && h->is_string()) {
      auto header = "mcp-param-" + lower(h->get<std::string>());
      auto got = headers.find(lower(h->get<std::string>()));
      if (got == headers.end())
        return mismatch("the " + header + " header is required: argument '" + name + "' is in the body");
      auto value = decode_param_header(got->second);
      if (!value)
        return mismatch(header + " is not valid Base64");
      if (!agrees(*arg, *value))
        return mismatch(header + " value does not match the body's '" + name + "'");
    }
    if (auto nested = walk(prop, *arg, headers))
      return nested;
  }
  return std::nullopt;
}

} // namespace

std::optional<std::string> decode_param_header(std::string_view raw) {
  while (!raw.empty() && (raw.front() == ' ' || raw.front() == '\t'))
    raw.remove_prefix(1);
  while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t'))
    raw.remove_suffix(1);
  constexpr std::string_view open = "=?base64?", close = "?=";
  if (raw.size() >= open.size() + close.size() && raw.substr(0, open.size()) == open
      && raw.substr(raw.size() - close.size()) == close) {
    auto b = raw.substr(open.size(), raw.size() - open.size() - close.size());
    if (!strict_base64(b))
      return std::nullopt;
    return detail::base64_decode(b);
  }
  return std::string(raw);
}

std::optional<jsonrpc::error> check_param_headers(const json& input_schema, const json& arguments,
                                                  const param_headers& headers) {
  return walk(input_schema, arguments, headers);
}

} // namespace cafmcp::protocol

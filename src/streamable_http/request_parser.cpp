#include "streamable_http/request_parser.hpp"

#include <cstdint>
#include <cstring>
#include <optional>

#include "foundation/ascii_case.hpp"

namespace cafmcp::http {

namespace {

std::string_view sv(beast::string_view v) { return {v.data(), v.size()}; }

constexpr std::string_view param_prefix = "mcp-param-";

// A field's name (a token: Beast refused any other) equal to `lower`, a
// name in lower-case letters and '-', in any case. A byte or'ed with 0x20
// is its lower case, and no other token byte becomes a lower-case letter
// or '-' that way, so eight bytes are judged at once (a byte at a time and
// a memcmp first, the names cost ~500 instructions a tools/call).
bool name_is(std::string_view name, std::string_view lower) {
  if (name.size() != lower.size())
    return false;
  constexpr std::uint64_t to_lower = 0x2020202020202020;
  auto word = [](const char* at) {
    std::uint64_t w;
    std::memcpy(&w, at, sizeof w);
    return w;
  };
  auto n = name.size();
  if (n < 8) {
    for (std::size_t i = 0; i < n; ++i)
      if ((name[i] | 0x20) != lower[i])
        return false;
    return true;
  }
  for (std::size_t i = 0; i + 8 < n; i += 8)
    if ((word(name.data() + i) | to_lower) != word(lower.data() + i))
      return false;
  return (word(name.data() + n - 8) | to_lower) == word(lower.data() + n - 8); // the last eight, overlapping
}

// Which of the transport's headers a field is, if any. Beast names the
// standard ones; the MCP ones (and Last-Event-ID) are unknown to it and
// told apart by their length first.
std::optional<header> header_of(beast::http::field name, std::string_view name_string) {
  using beast::http::field;
  switch (name) {
    case field::host: return header::host;
    case field::origin: return header::origin;
    case field::accept: return header::accept;
    case field::content_type: return header::content_type;
    case field::authorization: return header::authorization;
    case field::unknown: break;
    default: return std::nullopt;
  }
  auto is = [&](std::string_view lower, header h) { return name_is(name_string, lower) ? std::optional(h) : std::nullopt; };
  switch (name_string.size()) {
    case 14: return is("mcp-session-id", header::session_id);
    case 20: return is("mcp-protocol-version", header::protocol_version);
    case 10: return is("mcp-method", header::mcp_method);
    case 8: return is("mcp-name", header::mcp_name);
    case 13: return is("last-event-id", header::last_event_id);
    default: return std::nullopt;
  }
}

bool is_param(std::string_view name) {
  return name.size() > param_prefix.size() && name_is(name.substr(0, param_prefix.size()), param_prefix);
}

} // namespace

request::span request_parser::keep(beast::string_view text) {
  // Within the parser's header limit (a uint32_t), so offsets fit.
  request::span s{static_cast<std::uint32_t>(req_.texts_.size()), static_cast<std::uint32_t>(text.size())};
  req_.texts_.append(text.data(), text.size());
  return s;
}

void request_parser::on_request_impl(beast::http::verb method, beast::string_view method_str,
                                     beast::string_view target, int version, beast::error_code&) {
  // One allocation holds a POST's line and kept headers (~130 bytes).
  req_.texts_.reserve(256);
  req_.method_ = method;
  req_.version_ = version;
  req_.method_text_ = keep(method_str);
  req_.target_ = keep(target);
}

void request_parser::on_field_impl(beast::http::field name, beast::string_view name_string,
                                   beast::string_view value, beast::error_code&) {
  if (auto h = header_of(name, sv(name_string))) {
    auto& slot = req_.headers_[static_cast<std::size_t>(*h)];
    if (slot.at == request::absent) // a repeated header is read from its first line
      slot = keep(value);
    return;
  }
  if (name == beast::http::field::unknown && is_param(sv(name_string))) {
    auto lowered = keep(name_string.substr(param_prefix.size()));
    for (auto i = lowered.at; i < lowered.at + lowered.size; ++i)
      req_.texts_[i] = ascii_lower(req_.texts_[i]);
    req_.params_.emplace_back(lowered, keep(value));
  }
}

// The body limit is the parser's (basic_parser::body_limit): a length over
// it never gets here.
void request_parser::on_body_init_impl(const boost::optional<std::uint64_t>& content_length,
                                       beast::error_code&) {
  if (content_length)
    req_.body_.reserve(static_cast<std::size_t>(*content_length));
}

std::size_t request_parser::on_body_impl(beast::string_view body, beast::error_code&) {
  req_.body_.append(body.data(), body.size());
  return body.size();
}

std::size_t request_parser::on_chunk_body_impl(std::uint64_t, beast::string_view body, beast::error_code&) {
  req_.body_.append(body.data(), body.size());
  return body.size();
}

} // namespace cafmcp::http

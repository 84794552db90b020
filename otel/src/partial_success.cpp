#include "partial_success.hpp"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <limits>

#include <nlohmann/json.hpp>

namespace cafmcp::otel::detail {
namespace {

constexpr auto most = std::numeric_limits<std::int64_t>::max();

// The count is an int64: proto-JSON writes it as a string, some
// receivers as a number. A negative or unreadable count rejects nothing.
std::int64_t count_of(const nlohmann::json& v) {
  if (v.is_number_unsigned())
    return static_cast<std::int64_t>(std::min<std::uint64_t>(v.get<std::uint64_t>(), most));
  if (v.is_number_integer())
    return std::max<std::int64_t>(0, v.get<std::int64_t>());
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    std::uint64_t n = 0;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), n);
    if (ec == std::errc::result_out_of_range)
      return most;
    if (ec != std::errc() || end != s.data() + s.size())
      return 0;
    return static_cast<std::int64_t>(std::min<std::uint64_t>(n, most));
  }
  return 0;
}

} // namespace

std::optional<partial_success> partial_success_in(std::string_view body, otlp_protocol protocol,
                                                  const char* count_field) {
  if (protocol == otlp_protocol::http_protobuf) {
    auto ps = decode_otlp_protobuf_response(body);
    if (ps)
      ps->rejected_spans = std::max<std::int64_t>(0, ps->rejected_spans);
    return ps;
  }
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("partialSuccess") || !j["partialSuccess"].is_object())
    return std::nullopt;
  const auto& ps = j["partialSuccess"];
  partial_success out;
  if (auto it = ps.find(count_field); it != ps.end())
    out.rejected_spans = count_of(*it);
  if (auto it = ps.find("errorMessage"); it != ps.end() && it->is_string())
    out.error_message = it->get<std::string>();
  return out;
}

std::size_t report_partial_success(const std::optional<partial_success>& ps, const char* what) {
  if (!ps)
    return 0;
  auto n = static_cast<std::size_t>(ps->rejected_spans);
  if (n > 0 || !ps->error_message.empty())
    std::fprintf(stderr, "cafmcp-otel: receiver rejected %zu %s: %s\n", n, what, ps->error_message.c_str());
  return n;
}

} // namespace cafmcp::otel::detail

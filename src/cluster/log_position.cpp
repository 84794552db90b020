#include "cluster/log_position.hpp"

#include <charconv>

namespace cafmcp::cluster {
namespace {

std::optional<std::uint64_t> number(std::string_view digits) {
  std::uint64_t v = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    return std::nullopt;
  return v;
}

} // namespace

std::string log_position::text() const { return std::to_string(ms) + "-" + std::to_string(seq); }

std::optional<log_position> log_position::parse(std::string_view text) {
  auto dash = text.find('-');
  if (dash == std::string_view::npos)
    return std::nullopt;
  auto ms = number(text.substr(0, dash));
  auto seq = number(text.substr(dash + 1));
  if (!ms || !seq)
    return std::nullopt;
  return log_position{*ms, *seq};
}

} // namespace cafmcp::cluster

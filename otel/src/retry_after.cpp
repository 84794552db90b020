#include "retry_after.hpp"

#include <algorithm>
#include <ctime>
#include <string>

namespace cafmcp::otel::detail {
namespace {
// What a wait longer than any sensible retry becomes.
constexpr std::chrono::milliseconds much_later = std::chrono::hours(24 * 365);
} // namespace

std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
    value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
    value.remove_suffix(1);
  if (value.empty())
    return std::nullopt;
  if (value.find_first_not_of("0123456789") == std::string_view::npos) {
    if (value.size() > 9) // beyond 30 years: "much later", before stol could overflow
      return much_later;
    // Capped as a far date is: "99999999" (three years) is no sensible wait either.
    return std::min<std::chrono::milliseconds>(std::chrono::seconds(std::stol(std::string(value))),
                                               much_later);
  }
  // The preferred IMF-fixdate form, e.g. "Sun, 06 Nov 1994 08:49:37 GMT";
  // senders must use it (RFC 9110 §5.6.7), so the obsolete forms are ignored.
  std::string text(value);
  std::tm tm{};
  const char* end = ::strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (!end || *end != '\0')
    return std::nullopt;
  // Compared in seconds first: a date far from now (a collector chooses it)
  // overflows system_clock's nanoseconds (years beyond ~1678-2262).
  auto when = ::timegm(&tm);
  auto seconds_ahead = when - std::chrono::system_clock::to_time_t(now);
  if (seconds_ahead <= 0)
    return std::chrono::milliseconds(0);
  if (seconds_ahead > std::time_t{365} * 24 * 3600)
    return much_later;
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::from_time_t(when)
                                                               - now);
}

} // namespace cafmcp::otel::detail

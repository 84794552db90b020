#include "retry_after.hpp"

#include <ctime>
#include <string>

namespace cafmcp::otel::detail {

std::optional<std::chrono::milliseconds> parse_retry_after(std::string_view value,
                                                           std::chrono::system_clock::time_point now) {
  while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
    value.remove_prefix(1);
  while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
    value.remove_suffix(1);
  if (value.empty())
    return std::nullopt;
  if (value.find_first_not_of("0123456789") == std::string_view::npos) {
    if (value.size() > 9) // beyond 30 years: treat as "much later", not overflow
      return std::chrono::hours(24 * 365);
    return std::chrono::seconds(std::stol(std::string(value)));
  }
  // The preferred IMF-fixdate form, e.g. "Sun, 06 Nov 1994 08:49:37 GMT";
  // senders must use it (RFC 9110 §5.6.7), so the obsolete forms are ignored.
  std::string text(value);
  std::tm tm{};
  const char* end = ::strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  if (!end || *end != '\0')
    return std::nullopt;
  auto when = std::chrono::system_clock::from_time_t(::timegm(&tm));
  if (when <= now)
    return std::chrono::milliseconds(0);
  return std::chrono::duration_cast<std::chrono::milliseconds>(when - now);
}

} // namespace cafmcp::otel::detail

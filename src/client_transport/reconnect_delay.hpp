#pragma once
// How long a client waits before reconnecting a dropped SSE stream: pure,
// so its bounds are tested without waiting.
#include <algorithm>
#include <chrono>
#include <optional>

namespace cafmcp::client_detail {

/// The longest server `retry:` honoured; a longer one (a stream that says
/// "come back in a century", or a number made to overflow) waits this long.
inline constexpr std::chrono::milliseconds longest_server_retry = std::chrono::hours(24);

/// The server's `retry:` is the base when it sent one (the spec says the
/// client MUST honour it), else `initial`; each failure in a row doubles it,
/// up to `max_backoff` (or the base itself, when the server asked for more).
/// `failures` counts from 1. Saturating: nothing here overflows.
inline std::chrono::milliseconds reconnect_delay(int failures, std::optional<long> server_retry_ms,
                                                 std::chrono::milliseconds initial,
                                                 std::chrono::milliseconds max_backoff) {
  using ms = std::chrono::milliseconds;
  auto base = server_retry_ms ? std::min<ms>(ms(std::max<long>(0, *server_retry_ms)), longest_server_retry)
                              : std::max<ms>(ms(0), initial);
  auto cap = std::max(max_backoff, base);
  auto delay = base;
  for (int i = 1; i < failures && delay < cap; ++i)
    delay = delay > cap / 2 ? cap : delay * 2;
  return std::min(delay, cap);
}

} // namespace cafmcp::client_detail

#pragma once
// The time for what is kept for seconds: a stream history's event ages, a
// connection's last write (keep-alive comments). They are stamped on every
// delivery, where reading the precise clock costs as much as the rest of
// the stamping. CLOCK_MONOTONIC_COARSE is steady_clock's own clock
// (CLOCK_MONOTONIC) as of the kernel's last tick, 1-4 ms behind at most:
// an age read against the precise clock comes out that much longer, which
// bounds measured in seconds do not notice.
#include <chrono>
#include <ctime>

namespace cafmcp::http {

inline std::chrono::steady_clock::time_point coarse_now() noexcept {
  ::timespec ts{};
  ::clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
  return std::chrono::steady_clock::time_point(
    std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::seconds(ts.tv_sec)
                                                                    + std::chrono::nanoseconds(ts.tv_nsec)));
}

} // namespace cafmcp::http

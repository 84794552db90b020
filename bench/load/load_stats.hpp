#pragma once
// Latency percentiles and the load generator's own CPU use.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <sys/resource.h>

namespace cafmcp::load {

// min: the quickest answer or delivery, the server's reaction with nothing
// queued before it (one update at a time: about when a broadcast reaches
// its first session).
struct latency_summary {
  double min_us = 0, p50_us = 0, p99_us = 0, max_us = 0;
};

inline latency_summary summarize(std::vector<std::uint32_t>& us) {
  latency_summary s;
  if (us.empty())
    return s;
  auto at = [&](double q) {
    auto k = static_cast<std::size_t>(q * static_cast<double>(us.size() - 1));
    std::nth_element(us.begin(), us.begin() + static_cast<long>(k), us.end());
    return static_cast<double>(us[k]);
  };
  s.p50_us = at(0.50);
  s.p99_us = at(0.99);
  auto [lo, hi] = std::minmax_element(us.begin(), us.end());
  s.min_us = static_cast<double>(*lo);
  s.max_us = static_cast<double>(*hi);
  return s;
}

/// Seconds of CPU (user + system) this process has used so far.
inline double cpu_seconds() {
  rusage r{};
  ::getrusage(RUSAGE_SELF, &r);
  auto tv = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return tv(r.ru_utime) + tv(r.ru_stime);
}

} // namespace cafmcp::load

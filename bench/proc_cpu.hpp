#pragma once
// CPU time of another process from /proc: on a shared, noisy machine the
// server's CPU per delivery varies far less than its throughput does.
#include <fstream>
#include <iterator>
#include <string>

#include <sys/types.h>
#include <unistd.h>

namespace cafmcp::bench {

/// User + system seconds process `pid` has used (all its threads); 0 when
/// unreadable.
inline double cpu_seconds_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/stat");
  std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  // The command name may hold spaces: fields are counted after its ')'.
  auto close = stat.rfind(')');
  if (close == std::string::npos)
    return 0;
  std::size_t at = close + 2, field = 3;
  double utime = 0, stime = 0;
  while (at < stat.size() && field <= 15) {
    auto end = stat.find(' ', at);
    if (field == 14)
      utime = std::stod(stat.substr(at, end - at));
    if (field == 15)
      stime = std::stod(stat.substr(at, end - at));
    at = end == std::string::npos ? stat.size() : end + 1;
    ++field;
  }
  return (utime + stime) / static_cast<double>(::sysconf(_SC_CLK_TCK));
}

} // namespace cafmcp::bench

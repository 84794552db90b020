#pragma once
// Resident set size from /proc: what the memory figures are read from.
#include <fstream>
#include <string>

#include <sys/types.h>
#include <unistd.h>

namespace cafmcp::bench {

/// VmRSS of process `pid` (this process by default) in KiB; 0 when unreadable.
inline long rss_kib(pid_t pid = ::getpid()) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (in >> key) {
    if (key == "VmRSS:") {
      long v = 0;
      in >> v;
      return v;
    }
    in.ignore(1 << 12, '\n');
  }
  return 0;
}

} // namespace cafmcp::bench

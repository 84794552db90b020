#pragma once
// What one cafmcp-load run is given (options) and what it reports (result).
#include <cstdint>
#include <string>

#include <sys/types.h>

#include "load_stats.hpp"
#include "server_process.hpp"

namespace cafmcp::load {

struct options {
  std::string mode = "fanout";
  bool stdio = false;
  std::string url;
  std::string server;
  long server_pid = 0;
  int sessions = 100;
  int mutations = 200;
  int drivers = 1;
  int uris_per_driver = 1;
  int window = 1;
  int clients = 16;
  double duration = 3;
  int setup_parallel = 16;
  int timeout = 10;
  bool json = false;
  bool trace = false;
  std::string label;
  std::string bearer_token;
  std::string round_times; // fanout: a file for each mutation's times (empty: none)
};

struct result {
  std::uint64_t delivered = 0, lost = 0, duplicated = 0, out_of_order = 0, other = 0;
  double seconds = 0, client_cpu = 0, server_cpu = 0;
  latency_summary latency;
  long rss_start = 0, rss_idle = 0, rss_end = 0;
  std::uint64_t requests = 0;
  std::string error;
};

/// The server's RSS in KiB when its pid is known, else 0.
inline long server_rss(pid_t pid) { return pid > 0 ? rss_kib(pid) : 0; }

/// The server's CPU seconds so far when its pid is known, else 0.
inline double server_cpu(pid_t pid) { return pid > 0 ? bench::cpu_seconds_of(pid) : 0; }

} // namespace cafmcp::load

#pragma once
// The change log's address as configured: "redis://host[:port][/db]" or
// "memory://name" (nodes of one process sharing an in-memory log).
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

namespace cafmcp::cluster {

struct redis_address {
  std::string host;
  std::uint16_t port = 6379;
  unsigned db = 0;
};

struct memory_address {
  std::string name;
};

using log_address = std::variant<redis_address, memory_address>;

/// Throws std::invalid_argument naming what is wrong with `url`.
log_address parse_log_url(std::string_view url);

} // namespace cafmcp::cluster

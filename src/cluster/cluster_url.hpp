#pragma once
// The change log's address as configured: "redis://[[user]:password@]host[:port][/db]"
// (the userinfo percent-encoded, as in any URL) or "memory://name" (nodes of
// one process sharing an in-memory log). Errors never repeat a password.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace cafmcp::cluster {

struct redis_address {
  std::string host;
  std::uint16_t port = 6379;
  unsigned db = 0;
  std::string user;                    // empty: the default user
  std::optional<std::string> password; // set: AUTH after connecting
};

struct memory_address {
  std::string name;
};

using log_address = std::variant<redis_address, memory_address>;

/// Throws std::invalid_argument naming what is wrong with `url`.
log_address parse_log_url(std::string_view url);

/// `url` with any password replaced by "***", for messages and logs.
std::string redacted(std::string_view url);

} // namespace cafmcp::cluster

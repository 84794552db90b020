#pragma once
// One connection to the cluster's change log: append entries, read them from
// a position. The log itself is shared by every node; each node opens one
// connection for writing and one for reading, each used by one thread.
// Nothing here is thread-safe except interrupt().
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cluster/log_position.hpp"

namespace cafmcp::cluster {

struct log_entry {
  log_position position;
  std::string body;
};

class log_backend {
public:
  virtual ~log_backend() = default;
  /// Appends `bodies` in order; returns how many were appended. Fewer than
  /// all means the connection failed: error() says why, and the caller
  /// opens a new one. (An append whose answer was lost may still be in the
  /// log: readers drop such duplicates, see origin_filter.hpp.)
  virtual std::size_t append(std::span<const std::string> bodies) = 0;
  /// Up to `max` entries after `after`, in log order, waiting up to `wait`
  /// for the first one (an empty vector: none came). nullopt: the
  /// connection failed or interrupt() was called.
  virtual std::optional<std::vector<log_entry>> read(const log_position& after, std::size_t max,
                                                     std::chrono::milliseconds wait) = 0;
  /// The newest entry's position ({0,0} for an empty log); nullopt on failure.
  virtual std::optional<log_position> newest() = 0;
  /// From any thread: a read() waiting now (or later) returns nullopt.
  virtual void interrupt() = 0;
  virtual std::string error() const = 0;
};

/// Opens a connection; throws std::runtime_error when it cannot.
using log_connector = std::function<std::unique_ptr<log_backend>()>;

struct log_settings {
  std::string url;                         // see cluster_url.hpp
  std::string key_prefix = "cafmcp";       // Redis keys: <prefix>:log
  std::size_t max_entries = 100000;        // trimmed beyond (approximately)
  std::chrono::milliseconds timeout{2000}; // connect and each command
};

/// The connector for `settings.url`. Throws std::invalid_argument for a bad URL.
log_connector connector_for(const log_settings& settings);

} // namespace cafmcp::cluster

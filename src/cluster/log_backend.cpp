// The one place that knows which log a URL names.
#include "cluster/log_backend.hpp"

#include "cluster/cluster_url.hpp"
#include "cluster/memory_log.hpp"
#include "cluster/redis_log.hpp"

namespace cafmcp::cluster {

log_connector connector_for(const log_settings& settings) {
  auto address = parse_log_url(settings.url);
  if (auto* mem = std::get_if<memory_address>(&address))
    return [name = mem->name, max = settings.max_entries] { return open_memory_log(name, max); };
  return [where = std::get<redis_address>(address), settings] { return open_redis_log(where, settings); };
}

} // namespace cafmcp::cluster

#pragma once
// The client's writable side of its content_cache: users get the cache as a
// content_cache& (read and clear); only the client stores into it.
#include "cafmcp/content_cache.hpp"

namespace cafmcp::client_core {

class cache_store : public content_cache {
public:
  cache_store() = default;
  using content_cache::set_listener;
  using content_cache::store;
};

} // namespace cafmcp::client_core

#pragma once
// cafmcp's own way past the public API: components built on the server
// (resource_store spawns an actor in its actor system) and the tests reach
// the server's actors here. Not installed, so no user code depends on it.
#include "cafmcp/server.hpp"

#include "actors/server_impl.hpp"

namespace cafmcp {

struct server_access {
  static server::impl& of(server& s) { return *s.impl_; }
};

} // namespace cafmcp

#pragma once
// The one resource every fan-out benchmark updates and subscribes to.
#include "cafmcp/resource.hpp"

namespace cafmcp::bench {

inline constexpr const char* hot_uri = "bench://hot";

inline resource hot_resource() {
  resource r;
  r.uri = hot_uri;
  r.name = "hot";
  r.contents.push_back(resource_contents::make_text(hot_uri, "x"));
  return r;
}

} // namespace cafmcp::bench

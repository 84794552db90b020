#include "actors/post.hpp"

namespace cafmcp::actors {

caf::execution_unit*& current_unit() {
  thread_local caf::execution_unit* unit = nullptr;
  return unit;
}

} // namespace cafmcp::actors

#include <chrono>

#include "cafmcp/tracing.hpp"

namespace cafmcp {

std::uint64_t unix_nano_now() {
  return static_cast<std::uint64_t>(
    std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
      .count());
}

} // namespace cafmcp

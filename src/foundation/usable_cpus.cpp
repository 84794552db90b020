#include "foundation/usable_cpus.hpp"

#include <algorithm>
#include <thread>

#include <sched.h>

namespace cafmcp::detail {

std::size_t usable_cpus() noexcept {
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (::sched_getaffinity(0, sizeof mask, &mask) == 0) // 0: the calling thread
    return static_cast<std::size_t>(std::max(1, CPU_COUNT(&mask)));
  return std::max(1u, std::thread::hardware_concurrency()); // a mask past 1,024 CPUs: EINVAL
}

} // namespace cafmcp::detail

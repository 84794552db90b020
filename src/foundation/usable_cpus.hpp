#pragma once
// How many CPUs this thread may run on: its affinity mask (taskset, a
// container's cpuset, numactl), not the machine's count. A server confined
// to 2 CPUs of 64 that starts 64 actor threads only adds wake-ups and
// steals; a stdio reader confined to one CPU shares it with the client that
// started it (a child inherits its parent's mask), so a spin there only
// takes the CPU the client needs to answer.
#include <cstddef>

namespace cafmcp::detail {

/// The CPUs in the calling thread's affinity mask (at least 1); the
/// machine's count where the mask cannot be read.
std::size_t usable_cpus() noexcept;

} // namespace cafmcp::detail

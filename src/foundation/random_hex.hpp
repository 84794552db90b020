#pragma once
// Unguessable ids: `bytes` from the kernel's CSPRNG (getrandom), as
// lowercase hex. For anything an id alone grants access to (a task, a
// session), and for names that must not collide across processes.
#include <cstddef>
#include <string>

namespace cafmcp::detail {

std::string random_hex(std::size_t bytes);

} // namespace cafmcp::detail

#include "cafmcp/version.hpp"

// CAFMCP_VERSION is defined for this file alone (src/CMakeLists.txt), so a
// new version rebuilds one file, not the tree.
namespace cafmcp {

std::string_view version() noexcept { return CAFMCP_VERSION; }

} // namespace cafmcp

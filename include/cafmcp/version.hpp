#pragma once
// The version of cafmcp this program was built with: the one number the
// build declares (project() in CMakeLists.txt).
#include <string_view>

namespace cafmcp {

/// "MAJOR.MINOR.PATCH".
std::string_view version() noexcept;

} // namespace cafmcp

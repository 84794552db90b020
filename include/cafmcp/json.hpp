#pragma once
// cafmcp speaks JSON through nlohmann::json everywhere in its public API.
#include <nlohmann/json.hpp>

namespace cafmcp {
using json = nlohmann::json;
} // namespace cafmcp

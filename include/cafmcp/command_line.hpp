#pragma once
// A server command given as one string (a CLI option, a config value).
#include <string>
#include <vector>

namespace cafmcp {

/// Splits "CMD ARG 'quoted arg' \"x y\"" into argv the way a shell would
/// for quotes and backslashes (no variables, globs or redirections).
std::vector<std::string> split_command_line(const std::string& line);

} // namespace cafmcp

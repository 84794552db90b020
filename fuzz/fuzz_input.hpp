#pragma once
// How the targets that take several texts read one input: lines separated
// by '\n' (the seeds stay readable and libFuzzer's mutations can add,
// remove and swap whole texts).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace cafmcp::fuzz {

inline std::vector<std::string_view> split_lines(const std::uint8_t* data, std::size_t size) {
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  std::vector<std::string_view> lines;
  while (!rest.empty()) {
    auto nl = rest.find('\n');
    lines.push_back(rest.substr(0, nl));
    if (nl == std::string_view::npos)
      break;
    rest.remove_prefix(nl + 1);
  }
  return lines;
}

/// The deepest nesting of `[` and `{` in the text, strings not told apart
/// (an upper bound): the targets that hand text to nlohmann's recursive
/// parser skip what would only find the end of the stack, as the library's
/// callers refuse it first (jsonrpc::parse's depth limit).
inline std::size_t bracket_depth(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  for (char c : text)
    if (c == '[' || c == '{')
      deepest = std::max(deepest, ++depth);
    else if ((c == ']' || c == '}') && depth > 0)
      --depth;
  return deepest;
}

} // namespace cafmcp::fuzz

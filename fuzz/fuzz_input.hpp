#pragma once
// How the targets that take several texts read one input: lines separated
// by '\n' (the seeds stay readable and libFuzzer's mutations can add,
// remove and swap whole texts).
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

} // namespace cafmcp::fuzz

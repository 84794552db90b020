// Writing JSON (src/foundation/json_write.cpp): append_json(out, j) appends
// exactly j.dump(-1, ' ', false, replace), for any value: the value the
// input parses to, and strings and keys made of the input's raw bytes
// (invalid UTF-8 included, as a tool's output may hold).
#include "foundation/json_write.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"

namespace {

using cafmcp::json;

void writes_as_nlohmann(const json& j) {
  std::string out = "prefix";
  cafmcp::append_json(out, j);
  FUZZ_CHECK(out == "prefix" + j.dump(-1, ' ', false, json::error_handler_t::replace));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  std::string raw(text);
  writes_as_nlohmann(json(raw));
  writes_as_nlohmann(json::object({{raw, raw}, {"n", size}}));
  std::string out;
  cafmcp::append_json_string(out, raw);
  FUZZ_CHECK(out == json(raw).dump(-1, ' ', false, json::error_handler_t::replace));

  // nlohmann's parser recurses, and so do both writers.
  if (cafmcp::fuzz::bracket_depth(text) <= 64) {
    auto parsed = json::parse(text, nullptr, false);
    if (!parsed.is_discarded())
      writes_as_nlohmann(parsed);
  }
  return 0;
}

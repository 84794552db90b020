// JSON text to a json value (src/foundation/json_parse.cpp): parse_json(text)
// is json::parse(text), faster. Whatever the text, both give the same value,
// with the same types (signed or unsigned, float), members and order, or
// both throw the same nlohmann exception with the same message.
#include "foundation/json_parse.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"

namespace {

using cafmcp::json;

// Equal as JSON *and* typed alike: json's operator== calls 0 and 0u, or 1
// and 1.0, equal, and a caller asking is_number_unsigned() would not.
bool identical(const json& a, const json& b) {
  if (a.type() != b.type())
    return false;
  if (a.is_object()) {
    if (a.size() != b.size())
      return false;
    for (auto x = a.begin(), y = b.begin(); x != a.end(); ++x, ++y)
      if (x.key() != y.key() || !identical(*x, *y))
        return false;
    return true;
  }
  if (a.is_array()) {
    if (a.size() != b.size())
      return false;
    for (std::size_t i = 0; i < a.size(); ++i)
      if (!identical(a[i], b[i]))
        return false;
    return true;
  }
  // A float NaN cannot come from JSON text; == is exact for the rest.
  return a == b;
}

struct outcome {
  std::optional<json> value;
  std::string thrown; // the exception's message, when it threw
};

template <class Parse>
outcome run(Parse parse) {
  try {
    return {parse(), {}};
  } catch (const json::exception& e) {
    return {std::nullopt, e.what()};
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  if (cafmcp::fuzz::bracket_depth(text) > 64)
    return 0;

  auto fast = run([&] { return cafmcp::parse_json(text); });
  auto reference = run([&] { return json::parse(text); });
  FUZZ_CHECK(fast.value.has_value() == reference.value.has_value());
  if (reference.value)
    FUZZ_CHECK(identical(*fast.value, *reference.value));
  else
    FUZZ_CHECK(fast.thrown == reference.thrown);
  return 0;
}

// JSON text to a json value (src/foundation/json_parse.cpp): parse_json(text)
// is json::parse(text), faster. Whatever the text, both give the same value,
// with the same types (signed or unsigned, float), members and order, or
// both throw the same nlohmann exception with the same message. And
// read_envelope(text, limit) is nothing where the text nests deeper than
// the limit (counted here by hand, strings skipped), else the whole
// document's six message members and first other name, or the same throw.
#include "foundation/json_parse.hpp"

#include <algorithm>
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

// The nesting the text shows, brackets inside strings not counted: what
// read_envelope's limit is read against.
std::size_t nesting_of(std::string_view text) {
  std::size_t depth = 0, deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return deepest;
}

void check_envelope(std::string_view text, std::size_t limit) {
  using cafmcp::json_envelope;
  std::optional<json_envelope> fast;
  std::string fast_thrown;
  try {
    fast = cafmcp::read_envelope(text, limit);
  } catch (const json::exception& e) {
    fast_thrown = e.what();
  }
  if (nesting_of(text) > limit) {
    FUZZ_CHECK(!fast && fast_thrown.empty());
    return;
  }
  auto reference = run([&] { return json::parse(text); });
  if (!reference.value) {
    FUZZ_CHECK(fast_thrown == reference.thrown);
    return;
  }
  FUZZ_CHECK(fast.has_value());
  const json& doc = *reference.value;
  auto shape = doc.is_object() ? json_envelope::shape::object
               : doc.is_array() ? json_envelope::shape::array
                                : json_envelope::shape::scalar;
  FUZZ_CHECK(fast->top == shape);
  if (!doc.is_object())
    return;
  // The two members the quick way keeps as they are used are never kept
  // both ways at once.
  FUZZ_CHECK(!(fast->jsonrpc_2_0 && fast->jsonrpc) && !(fast->method_name && fast->method));
  const char* const names[] = {"id", "jsonrpc", "method", "params", "result", "error"};
  std::optional<std::string> unknown;
  for (auto it = doc.begin(); it != doc.end(); ++it) {
    bool known = false;
    for (auto name : names)
      if (it.key() == name) {
        known = true;
        auto member = fast->member(name);
        FUZZ_CHECK(member.has_value() && identical(*member, *it));
      }
    if (!known && !unknown)
      unknown = it.key();
  }
  for (auto name : names)
    FUZZ_CHECK(fast->member(name).has_value() == doc.contains(name));
  FUZZ_CHECK(fast->unknown == unknown);
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
  // A limit the fuzzer can reach and cross, and the default.
  check_envelope(text, 3);
  check_envelope(text, 64);
  return 0;
}

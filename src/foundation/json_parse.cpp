#include "foundation/json_parse.hpp"

#include <cstdint>
#include <string>

#include <simdjson.h>

namespace cafmcp {
namespace {

// nlohmann types the integer `-0` signed and `0` unsigned; simdjson reads
// both as the same int64 0, and its tape no longer says which text it was.
// Text that may hold one goes to nlohmann. A number's `-` follows the
// start, `[`, `,`, `:` or whitespace: a `-0` after anything else is inside
// a string (a UUID's "-0f3a", common in ids and tokens, would otherwise
// send a quarter of such messages the slow way). `-0.5` and `-0e3` are
// doubles to both.
bool may_hold_negative_zero(std::string_view text) {
  for (auto at = text.find("-0"); at != std::string_view::npos; at = text.find("-0", at + 2)) {
    char before = at > 0 ? text[at - 1] : ' ';
    char next = at + 2 < text.size() ? text[at + 2] : ' ';
    bool starts_a_value = before == '[' || before == ',' || before == ':' || before == ' ' || before == '\t'
                          || before == '\n' || before == '\r';
    if (starts_a_value && next != '.' && next != 'e' && next != 'E')
      return true;
  }
  return false;
}

// Builds `out` from simdjson's element; false for anything it cannot
// represent as nlohmann would (then nlohmann parses the text).
bool build(simdjson::dom::element e, json& out) {
  using kind = simdjson::dom::element_type;
  switch (e.type()) {
    case kind::OBJECT: {
      out = json::object();
      auto& members = out.get_ref<json::object_t&>();
      for (auto [key, value] : simdjson::dom::object(e))
        // operator[]: a repeated key keeps its last value, as nlohmann's does.
        if (!build(value, members[std::string(key)]))
          return false;
      return true;
    }
    case kind::ARRAY: {
      simdjson::dom::array items(e);
      out = json::array();
      auto& elements = out.get_ref<json::array_t&>();
      elements.reserve(items.size());
      for (auto item : items)
        if (!build(item, elements.emplace_back()))
          return false;
      return true;
    }
    case kind::STRING: out = std::string(std::string_view(e)); return true;
    case kind::INT64: {
      // nlohmann types every non-negative integer as unsigned.
      auto n = std::int64_t(e);
      if (n >= 0)
        out = std::uint64_t(n);
      else
        out = n;
      return true;
    }
    case kind::UINT64: out = std::uint64_t(e); return true;
    case kind::DOUBLE: out = double(e); return true;
    case kind::BOOL: out = bool(e); return true;
    case kind::NULL_VALUE: out = nullptr; return true;
  }
  return false;
}

} // namespace

json parse_json(std::string_view text) {
  if (text.size() <= small_json_bytes && !may_hold_negative_zero(text)) {
    thread_local simdjson::dom::parser parser;
    // realloc_if_needed: copied into the parser's padded buffer (simdjson
    // reads up to 64 bytes past the text).
    auto doc = parser.parse(text.data(), text.size(), true);
    json out;
    if (!doc.error() && build(doc.value_unsafe(), out))
      return out;
  }
  return json::parse(text);
}

} // namespace cafmcp

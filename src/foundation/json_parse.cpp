#include "foundation/json_parse.hpp"

#include <algorithm>
#include <array>
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

enum class built { done, declined, too_deep };

// Builds `out` from simdjson's element: `declined` for anything it cannot
// represent as nlohmann would (then nlohmann parses the text), `too_deep`
// for a container past `room` levels (the element's own is the first).
// simdjson's own depth limit does not count an empty innermost container,
// so the level is counted here too.
built build(simdjson::dom::element e, json& out, std::size_t room) {
  using kind = simdjson::dom::element_type;
  switch (e.type()) {
    case kind::OBJECT: {
      if (room == 0)
        return built::too_deep;
      out = json::object();
      auto& members = out.get_ref<json::object_t&>();
      for (auto [key, value] : simdjson::dom::object(e))
        // operator[]: a repeated key keeps its last value, as nlohmann's does.
        if (auto r = build(value, members[std::string(key)], room - 1); r != built::done)
          return r;
      return built::done;
    }
    case kind::ARRAY: {
      if (room == 0)
        return built::too_deep;
      simdjson::dom::array items(e);
      out = json::array();
      auto& elements = out.get_ref<json::array_t&>();
      elements.reserve(items.size());
      for (auto item : items)
        if (auto r = build(item, elements.emplace_back(), room - 1); r != built::done)
          return r;
      return built::done;
    }
    case kind::STRING: out = std::string(std::string_view(e)); return built::done;
    case kind::INT64: {
      // nlohmann types every non-negative integer as unsigned.
      auto n = std::int64_t(e);
      if (n >= 0)
        out = std::uint64_t(n);
      else
        out = n;
      return built::done;
    }
    case kind::UINT64: out = std::uint64_t(e); return built::done;
    case kind::DOUBLE: out = double(e); return built::done;
    case kind::BOOL: out = bool(e); return built::done;
    case kind::NULL_VALUE: out = nullptr; return built::done;
  }
  return built::declined;
}

// Whether a container inside `e` (or `e`) lies past `room` levels: for
// what is not built.
bool nests_past(simdjson::dom::element e, std::size_t room) {
  using kind = simdjson::dom::element_type;
  if (e.type() == kind::OBJECT) {
    if (room == 0)
      return true;
    for (auto [key, value] : simdjson::dom::object(e))
      if (nests_past(value, room - 1))
        return true;
  } else if (e.type() == kind::ARRAY) {
    if (room == 0)
      return true;
    for (auto item : simdjson::dom::array(e))
      if (nests_past(item, room - 1))
        return true;
  }
  return false;
}

// Depth measured on the raw text, iteratively: for the text simdjson does
// not read (nlohmann's parser, and a recursive step over a deep tape, would
// overflow the stack on hostile input). Every byte passes here: most are
// none of the six that matter, and a table lets the loop pass them with one
// test each.
enum class depth_byte : unsigned char { plain, quote, backslash, open, close };
constexpr std::array<depth_byte, 256> depth_bytes = [] {
  std::array<depth_byte, 256> t{};
  t['"'] = depth_byte::quote;
  t['\\'] = depth_byte::backslash;
  t['['] = t['{'] = depth_byte::open;
  t[']'] = t['}'] = depth_byte::close;
  return t;
}();

bool deeper_than(std::string_view text, std::size_t limit) {
  std::size_t depth = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    auto kind = depth_bytes[static_cast<unsigned char>(text[i])];
    if (kind == depth_byte::plain)
      continue;
    if (in_string) {
      if (kind == depth_byte::backslash)
        ++i; // the escaped byte, whatever it is
      else if (kind == depth_byte::quote)
        in_string = false;
      continue;
    }
    if (kind == depth_byte::quote)
      in_string = true;
    else if (kind == depth_byte::open && ++depth > limit)
      return true;
    else if (kind == depth_byte::close && depth > 0)
      --depth;
  }
  return false;
}

// The slot of member `key`, of an envelope being filled or read.
template <class Envelope>
auto* slot_of(Envelope& env, std::string_view key) {
  return key == "id"        ? &env.id
         : key == "jsonrpc" ? &env.jsonrpc
         : key == "method"  ? &env.method
         : key == "params"  ? &env.params
         : key == "result"  ? &env.result
         : key == "error"   ? &env.error
                            : nullptr;
}

void note_unknown(json_envelope& env, std::string_view key) {
  if (!env.unknown || key < *env.unknown)
    env.unknown = std::string(key);
}

// simdjson's depth limit is its stack of open containers, kept per parser;
// past this the text goes the long way (and `build`'s recursion stays
// bounded by it).
constexpr std::size_t simdjson_max_depth = 1024;

// The envelope from simdjson's element, its top level a container at
// level 1 of `max_depth`. The text is validated JSON already: an unknown
// member's value is not built (no value of it changes what is answered),
// nor an array's (a batch is refused whatever it holds), only measured.
built read_members(simdjson::dom::element root, json_envelope& env, std::size_t max_depth) {
  using kind = simdjson::dom::element_type;
  if (root.type() != kind::OBJECT) {
    env.top = root.type() == kind::ARRAY ? json_envelope::shape::array : json_envelope::shape::scalar;
    return nests_past(root, max_depth) ? built::too_deep : built::done;
  }
  if (max_depth == 0)
    return built::too_deep;
  for (auto [key, value] : simdjson::dom::object(root)) {
    // A repeated member keeps its last value, as nlohmann's object does:
    // each way of keeping one clears the other.
    if (value.type() == kind::STRING) {
      if (key == "jsonrpc" && std::string_view(value) == "2.0") {
        env.jsonrpc.reset();
        env.jsonrpc_2_0 = true;
        continue;
      }
      if (key == "method") {
        env.method.reset();
        env.method_name.emplace(std::string_view(value));
        continue;
      }
    }
    auto* slot = slot_of(env, key);
    if (!slot) {
      note_unknown(env, key);
      if (nests_past(value, max_depth - 1))
        return built::too_deep;
      continue;
    }
    if (slot == &env.jsonrpc)
      env.jsonrpc_2_0 = false;
    else if (slot == &env.method)
      env.method_name.reset();
    if (auto r = build(value, slot->emplace(), max_depth - 1); r != built::done)
      return r;
  }
  return built::done;
}

json_envelope envelope_of(json doc) {
  json_envelope env;
  if (!doc.is_object()) {
    env.top = doc.is_array() ? json_envelope::shape::array : json_envelope::shape::scalar;
    return env;
  }
  for (auto& [name, value] : doc.get_ref<json::object_t&>()) {
    if (auto* slot = slot_of(env, name))
      slot->emplace(std::move(value));
    else if (!env.unknown)
      env.unknown = name; // the map's order: the first is the least
  }
  return env;
}

} // namespace

std::optional<json> json_envelope::member(std::string_view name) const {
  if (name == "jsonrpc" && jsonrpc_2_0)
    return json("2.0");
  if (name == "method" && method_name)
    return json(*method_name);
  auto* slot = slot_of(*this, name);
  return slot ? *slot : std::nullopt;
}

std::optional<json_envelope> read_envelope(std::string_view text, std::size_t max_depth) {
  if (text.size() <= small_json_bytes && max_depth < simdjson_max_depth && !may_hold_negative_zero(text)) {
    thread_local simdjson::dom::parser parser;
    // Its stack one level deeper than the limit: simdjson stops early at
    // what surely nests too deep (DEPTH_ERROR), and what it lets through is
    // measured as it is built. (A parser that cannot have its stack, out of
    // memory, leaves the text to the long way.)
    bool ready = parser.max_depth() == max_depth + 1
                 || !parser.allocate(std::max<std::size_t>(parser.capacity(), text.size()), max_depth + 1);
    if (ready) {
      auto doc = parser.parse(text.data(), text.size(), true);
      json_envelope env;
      if (!doc.error() && read_members(doc.value_unsafe(), env, max_depth) == built::done)
        return env;
    }
  }
  // The long way, for all else: too deep, broken, declined. On broken text
  // simdjson may see strings where the byte scan does not (a backslash
  // outside one): the scan decides, as it always has.
  if (deeper_than(text, max_depth))
    return std::nullopt;
  return envelope_of(json::parse(text));
}

json parse_json(std::string_view text) {
  if (text.size() <= small_json_bytes && !may_hold_negative_zero(text)) {
    thread_local simdjson::dom::parser parser;
    // realloc_if_needed: copied into the parser's padded buffer (simdjson
    // reads up to 64 bytes past the text).
    auto doc = parser.parse(text.data(), text.size(), true);
    json out;
    // No limit of its own: simdjson's stack (1,024 levels) bounds the recursion.
    if (!doc.error() && build(doc.value_unsafe(), out, simdjson_max_depth) == built::done)
      return out;
  }
  return json::parse(text);
}

} // namespace cafmcp

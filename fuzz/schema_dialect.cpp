// JSON Schema translation (src/foundation/schema_dialect.cpp) and the
// validator that compiles its output with valijson
// (src/foundation/schema_validator.cpp). Input: a schema (JSON), a newline,
// an instance (JSON). Tool schemas come from authors, but the client checks
// structured output against schemas a server lists, so a schema is hostile
// input too.
//
// prepare() translates or throws invalid_argument, nothing else; every
// `$ref` in what it returns is local. A schema_validator is built or
// refused with invalid_argument; a built one validates any instance without
// throwing, and a violation is always reported with a message.
#include "foundation/schema_dialect.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string_view>

#include "cafmcp/json.hpp"

#include "foundation/schema_validator.hpp"
#include "fuzz_check.hpp"

namespace {

using cafmcp::json;

// What a message could carry: jsonrpc::parse refuses nesting deeper than
// its limit (64) before any schema reaches the validator.
constexpr int max_depth = 64;

std::optional<json> parse(std::string_view text) {
  int deepest = 0;
  auto doc = json::parse(
    text,
    [&deepest](int depth, json::parse_event_t, json&) {
      deepest = std::max(deepest, depth);
      return true;
    },
    false);
  if (doc.is_discarded() || deepest > max_depth)
    return std::nullopt;
  return doc;
}

// Where valijson (draft 7, after translation) looks for subschemas; a
// member under any other key is data or an unknown keyword, never followed.
bool is_applicator(std::string_view key) {
  for (std::string_view k : {"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependencies", "items",
                             "additionalItems", "contains", "properties", "patternProperties",
                             "additionalProperties", "propertyNames", "definitions", "$defs"})
    if (k == key)
      return true;
  return false;
}

// Every `$ref` valijson will follow: "#" or "#/pointer" that resolves.
// `map` says the node's members are named subschemas (properties, ...).
void check_refs(const json& root, const json& schema, bool map = false) {
  if (map) {
    if (schema.is_object())
      for (auto& child : schema)
        check_refs(root, child);
    return;
  }
  if (!schema.is_object())
    return;
  if (auto ref = schema.find("$ref"); ref != schema.end()) {
    FUZZ_CHECK(ref->is_string());
    auto text = ref->get<std::string>();
    FUZZ_CHECK(text == "#" || (text.size() > 1 && text[0] == '#' && text[1] == '/'));
    if (text != "#")
      FUZZ_CHECK(root.contains(json::json_pointer(text.substr(1))));
  }
  for (auto it = schema.begin(); it != schema.end(); ++it) {
    if (!is_applicator(it.key()))
      continue;
    bool named = it.key() == "properties" || it.key() == "patternProperties" || it.key() == "dependencies"
                 || it.key() == "definitions" || it.key() == "$defs";
    if (it->is_array())
      for (auto& child : *it)
        check_refs(root, child);
    else
      check_refs(root, *it, named);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto nl = text.find('\n');
  auto schema = parse(text.substr(0, nl));
  if (!schema)
    return 0;
  std::optional<json> instance;
  if (nl != std::string_view::npos)
    instance = parse(text.substr(nl + 1));

  try {
    auto prepared = cafmcp::schema_dialect::prepare(*schema);
    check_refs(prepared.document, prepared.document);
  } catch (const std::invalid_argument&) {
  }

  std::optional<cafmcp::schema_validator> validator;
  try {
    validator.emplace(*schema);
  } catch (const std::invalid_argument& e) {
    FUZZ_CHECK(*e.what() != '\0');
    return 0;
  }
  if (!instance)
    return 0;
  auto verdict = validator->validate(*instance);
  if (verdict)
    FUZZ_CHECK(!verdict->empty());
  if (*schema == json(true) || *schema == json::object())
    FUZZ_CHECK(!verdict);
  return 0;
}

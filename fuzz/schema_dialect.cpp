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
#include <optional>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "cafmcp/json.hpp"

#include "foundation/plain_schema.hpp"
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

// Where valijson (draft 7, after translation) looks for subschemas, and in
// what shape: a list keyword holds an array of schemas, a map keyword an
// object of them, a one keyword a schema (or an array, as `items`). A member
// under any other key, or of another shape, is data or a malformed keyword,
// never followed: an array under `$defs` holding a dangling `$ref` is
// not a reference anyone resolves (input crash-6c438e6a... in the corpus:
// the check once descended into any array).
enum class form { list, one, map };

std::optional<form> applicator(std::string_view key) {
  static constexpr std::pair<std::string_view, form> table[] = {
    {"allOf", form::list},           {"anyOf", form::list},      {"oneOf", form::list},
    {"not", form::one},              {"if", form::one},          {"then", form::one},
    {"else", form::one},             {"dependencies", form::map}, {"items", form::one},
    {"additionalItems", form::one},  {"contains", form::one},    {"properties", form::map},
    {"patternProperties", form::map}, {"additionalProperties", form::one}, {"propertyNames", form::one},
    {"definitions", form::map},      {"$defs", form::map}};
  for (auto& [k, f] : table)
    if (k == key)
      return f;
  return std::nullopt;
}

// Every `$ref` valijson will follow: "#" or "#/pointer" that resolves.
void check_refs(const json& root, const json& schema) {
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
    auto f = applicator(it.key());
    if (!f)
      continue;
    if (*f == form::map) {
      if (it->is_object())
        for (auto& child : *it)
          check_refs(root, child);
    } else if (it->is_array()) { // prepare() walks a one keyword's array too
      for (auto& child : *it)
        check_refs(root, child);
    } else if (*f == form::one) {
      check_refs(root, *it);
    }
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

  std::optional<cafmcp::plain_schema> plain;
  try {
    auto prepared = cafmcp::schema_dialect::prepare(*schema);
    check_refs(prepared.document, prepared.document);
    if (prepared.parse_as != cafmcp::schema_dialect::draft::v3)
      plain = cafmcp::plain_schema::from(prepared.document);
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
  // The quick check's yes is valijson's: the same schema in a one-member
  // allOf (not plain, so valijson alone decides) accepts the value too.
  if (plain && plain->accepts(*instance)) {
    FUZZ_CHECK(!verdict);
    json wrapped = json::object();
    json inner = *schema;
    if (inner.is_object() && inner.contains("$schema")) {
      wrapped["$schema"] = inner["$schema"];
      inner.erase("$schema");
    }
    wrapped["allOf"] = json::array({std::move(inner)});
    FUZZ_CHECK(!cafmcp::plain_schema::from(wrapped));
    FUZZ_CHECK(!cafmcp::schema_validator(wrapped).validate(*instance));
  }
  return 0;
}

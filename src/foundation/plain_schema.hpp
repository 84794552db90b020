#pragma once
// The shape most tool input schemas have: `type` (one name), `properties`,
// `required`, `additionalProperties`, `items` (one schema), `enum` of
// strings, and annotations (`title`, `description`, `default`, ...). Such a
// schema is checked here by walking the value once; valijson, built for
// every keyword, takes ~6,000 instructions to accept `{uri, text}` against
// two string properties (a visitor, a std::function per constraint, an
// adapter per value), a tenth of a whole stdio tools/call.
//
// One-sided on purpose: accepts() true means the value is valid; false
// means "ask valijson", which says why (or accepts it after all: 3.0 is an
// integer to JSON Schema, and is left to schema_validator's normalization).
// A schema with any other keyword is not plain, and valijson checks every
// value.
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cafmcp/json.hpp"

namespace cafmcp {

class plain_schema {
public:
  /// The schema as checked here, or nullopt when it uses anything beyond
  /// the keywords above. `schema` is in draft 4 to 2020-12 form (what
  /// schema_dialect::prepare returns; not draft 3, whose `required` differs).
  static std::optional<plain_schema> from(const json& schema);

  /// True only for a value that is valid against the schema.
  bool accepts(const json& value) const { return accepts(*root_, value); }

private:
  enum class type { any, null, boolean, integer, number, string, object, array };
  struct node {
    bool never = false; // the schema `false`
    type is = type::any;
    std::vector<std::pair<std::string, std::unique_ptr<node>>> properties;
    std::vector<std::string> required;
    std::unique_ptr<node> additional;                       // null: any other property is allowed
    std::unique_ptr<node> items;                            // null: any item
    std::optional<std::vector<std::string>> one_of_strings; // `enum`
  };

  explicit plain_schema(std::unique_ptr<node> root) : root_(std::move(root)) {}
  static std::unique_ptr<node> compile(const json& schema, int depth);
  static bool is_a(type t, const json& value);
  static bool accepts(const node& n, const json& value);

  std::shared_ptr<const node> root_; // shared: copies of a compiled schema are cheap
};

} // namespace cafmcp

#pragma once
// Rewrites a JSON Schema into what valijson 1.0 (drafts 3, 4 and 7) can
// compile with the meaning its own dialect gives it. MCP's default dialect is
// 2020-12; most of what tools use is spelled the same in draft 7, and the
// rest is translated here: `prefixItems`, `dependentRequired`,
// `dependentSchemas`, `$ref` next to other keywords, `$anchor` references.
// Also refuses, with a clear message, what would make valijson crash or
// recurse forever: unresolvable or remote `$ref`s, cycles of references
// that never descend into the value, invalid regular expressions.
//
// `pattern` and `format` leave under names of our own (pattern_keyword,
// format_keyword): valijson would check them with std::regex, which a long
// string crashes (ecma_pattern.hpp); schema_validator checks them instead,
// and `patternProperties` too (valijson_pattern_properties.hpp).
#include <string>

#include "cafmcp/json.hpp"

namespace cafmcp::schema_dialect {

enum class draft { v3, v4, v7 };

/// Where `pattern` (a string) and, before 2020-12, `format` move to.
inline constexpr const char* pattern_keyword = "x-cafmcp-pattern";
inline constexpr const char* format_keyword = "x-cafmcp-format";

struct prepared {
  json document; // every `$ref` in it is "#" or "#/json/pointer" into itself
  draft parse_as = draft::v7;
};

/// Throws std::invalid_argument naming the problem (and where it is).
prepared prepare(const json& schema);

} // namespace cafmcp::schema_dialect

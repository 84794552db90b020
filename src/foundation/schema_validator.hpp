#pragma once
// Tool input/output checks against a JSON Schema, compiled once when the
// tool is registered (not per call). valijson 1.0 implements drafts 4-7;
// MCP's default dialect is 2020-12, whose keywords tools actually use
// ($defs, if/then/else, const, allOf...) validate the same way, so we
// parse as draft 7 after setting `$schema` aside.
#include <memory>
#include <optional>
#include <string>

#include "cafmcp/json.hpp"

namespace cafmcp {

class schema_validator {
public:
  /// Throws std::invalid_argument when the schema itself is unusable.
  explicit schema_validator(const json& schema);
  ~schema_validator();

  /// nullopt when `instance` is valid; else the violations, one per line,
  /// each prefixed with where it is ("/age: ...").
  std::optional<std::string> validate(const json& instance) const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace cafmcp

#pragma once
// Tool input/output checks against a JSON Schema, compiled once when the
// tool is registered (not per call). valijson 1.0 implements drafts 3, 4
// and 7; MCP's default dialect is 2020-12, which schema_dialect translates
// (see there for what is and is not covered).
#include <memory>
#include <optional>
#include <string>

#include "cafmcp/json.hpp"

namespace cafmcp {

class schema_validator {
public:
  /// Compiles once. Throws std::invalid_argument with a clear message when
  /// the schema itself is unusable (not an object or boolean, an unknown
  /// type name, an unresolvable or remote $ref, a bad regular expression).
  explicit schema_validator(const json& schema);
  ~schema_validator();
  schema_validator(const schema_validator&) = delete;
  schema_validator& operator=(const schema_validator&) = delete;

  /// nullopt when `instance` is valid; else the violations separated by
  /// "; ", each prefixed with a JSON pointer to the offending value
  /// ("/age: expected integer, got string"; "/" is the value itself).
  std::optional<std::string> validate(const json& instance) const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace cafmcp

#pragma once
// `patternProperties` matched with Boost.Regex (ecma_pattern.hpp) instead of
// valijson's std::regex. Include once, in the one translation unit that
// validates with valijson, after valijson's headers and before the first
// validation: it is an explicit specialization of valijson's visitor for
// `properties`/`patternProperties`/`additionalProperties` on nlohmann::json
// values, which must be seen before that member is first instantiated.
//
// Why not leave it to valijson: its std::regex matches by recursion, one
// stack frame per character a quantifier takes, and backtracks without
// bound, so a valid pattern such as "^(a+)+$" in a schema an untrusted
// server sent takes a client minutes on a 30-character key, and a long key
// exhausts the stack. Debian's valijson 1.0 has no way to plug in a regular
// expression engine; this member is the narrowest place to do it. Boost.Regex
// bounds its work: a key past the bound is a violation ("too long or pattern
// too complex to check"), never a crash or a hang.
//
// Semantics as JSON Schema (and valijson) give them: a member named in
// `properties` is checked against that schema; a member whose name a pattern
// matches, against the pattern's schema (every pattern that matches); the
// members neither covers, against `additionalProperties` (absent: anything
// goes, as valijson models it with an always-true subschema).
#include <set>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/validation_visitor.hpp>

#include "foundation/ecma_pattern.hpp"

namespace cafmcp::detail {

/// A pattern compiled once per thread: validators run on many threads at
/// once, so no lock; the cache is bounded (cleared when full) because the
/// schemas a client checks come from servers. The dialect refused every
/// pattern ecma_pattern cannot compile, so this does not throw for a
/// prepared schema (std::invalid_argument otherwise).
inline const ecma_pattern& key_pattern(const std::string& text) {
  constexpr std::size_t max_cached = 256;
  thread_local std::unordered_map<std::string, ecma_pattern> compiled;
  if (auto found = compiled.find(text); found != compiled.end())
    return found->second;
  if (compiled.size() >= max_cached)
    compiled.clear();
  return compiled.emplace(text, ecma_pattern(text)).first->second;
}

} // namespace cafmcp::detail

namespace valijson {

template <>
inline bool ValidationVisitor<adapters::NlohmannJsonAdapter>::visit(
  const constraints::PropertiesConstraint& constraint) {
  if ((m_strictTypes && !m_target.isObject()) || !m_target.maybeObject())
    return true;
  const auto object = m_target.asObject();
  const bool exhaustive = m_results != nullptr;
  bool validated = true;
  std::set<std::string> covered; // names `properties` or a pattern took

  // `properties`: valijson's own functor (no regular expression in it).
  constraint.applyToProperties(ValidatePropertySubschemas(object, m_context, true, exhaustive, true,
                                                          m_strictTypes, m_results, &covered, &validated,
                                                          m_regexesCache));
  if (!validated && !exhaustive)
    return false;

  auto check_member = [&](const std::string& name, const adapters::NlohmannJsonAdapter& value,
                          const Subschema& schema) {
    std::vector<std::string> at = m_context;
    at.push_back("[" + name + "]");
    ValidationVisitor child(value, std::move(at), m_strictTypes, m_results, m_regexesCache);
    return child.validateSchema(schema);
  };

  // `patternProperties`: stops at the first failing member, as valijson does.
  constraint.applyToPatternProperties([&](const auto& pattern_text, const Subschema* schema) {
    const std::string text(pattern_text.c_str());
    auto fail = [&](const char* why, const std::string& name) {
      covered.insert(name); // reported here, not again as an additional property
      if (m_results)
        m_results->pushError(m_context, why + text + "'.");
      validated = false;
      return false;
    };
    for (const auto member : object) {
      bool matched = false;
      try {
        matched = cafmcp::detail::key_pattern(text).search(member.first);
      } catch (const std::exception&) { // past Boost.Regex's bounds: fail closed
        return fail("Property name too long or pattern too complex to check against pattern '", member.first);
      }
      if (!matched)
        continue;
      covered.insert(member.first);
      if (!check_member(member.first, member.second, *schema))
        return fail("Failed to validate against schema associated with pattern '", member.first);
    }
    return true;
  });

  // The rest: `additionalProperties`.
  const Subschema* rest = constraint.getAdditionalPropertiesSubschema();
  for (const auto member : object) {
    if (covered.count(member.first))
      continue;
    if (!rest) {
      if (m_results)
        m_results->pushError(m_context, "Object contains a property that could not be validated using "
                                        "'properties' or 'additionalProperties' constraints: '"
                                          + member.first + "'.");
      return false;
    }
    if (!check_member(member.first, member.second, *rest)) {
      if (m_results)
        m_results->pushError(m_context, "Failed to validate against additional properties schema");
      validated = false;
      if (!exhaustive)
        return false;
    }
  }
  return validated;
}

} // namespace valijson

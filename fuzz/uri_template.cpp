// RFC 6570 templates (src/foundation/uri_template.cpp) from both sides: a
// template a hostile server lists, a URI a hostile client reads. Input:
// lines, the template, then a URI to match, then values for the template's
// variables in order.
//
// A malformed template is refused with invalid_argument and nothing else.
// A template built expands anything without throwing. What a URI matches
// expands to a URI that matches again (the inverse the server relies on to
// route resources/read), to the same values when the template has one
// expression (with several, which split a match picks is a choice).
#include "cafmcp/uri_template.hpp"

#include <cctype>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"

namespace {

bool is_hex(char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; }

bool holds_triplet(const cafmcp::uri_template::variables& vars) {
  for (auto& [name, v] : vars)
    for (std::size_t i = 0; i + 2 < v.size(); ++i)
      if (v[i] == '%' && is_hex(v[i + 1]) && is_hex(v[i + 2]))
        return true;
  return false;
}

bool holds_comma(const cafmcp::uri_template::variables& vars) {
  for (auto& [name, v] : vars)
    if (v.find(',') != std::string::npos)
      return true;
  return false;
}

// Whether an expression lists several variables ("{+a,b}"): a comma between
// braces (a literal's commas lie outside them).
bool lists_several(std::string_view text) {
  bool inside = false;
  for (char c : text) {
    inside = c == '{' || (inside && c != '}');
    if (inside && c == ',')
      return true;
  }
  return false;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto lines = cafmcp::fuzz::split_lines(data, size);
  if (lines.empty())
    return 0;
  std::optional<cafmcp::uri_template> t;
  try {
    t.emplace(std::string(lines[0]));
  } catch (const std::invalid_argument&) {
    return 0;
  }
  std::size_t expressions = 0;
  {
    // Variable names repeat in a template ("{x}/{x}"); count expressions by
    // their braces instead.
    for (char c : t->text())
      expressions += c == '{';
  }

  cafmcp::uri_template::variables vars;
  for (std::size_t i = 0; i < t->variable_names().size() && i + 2 < lines.size(); ++i)
    vars.emplace(t->variable_names()[i], std::string(lines[i + 2]));
  auto expanded = t->expand(vars);
  t->match(expanded);

  if (lines.size() < 2)
    return 0;
  auto matched = t->match(lines[1]);
  if (!matched)
    return 0;
  for (auto& [name, value] : *matched) {
    bool known = false;
    for (auto& n : t->variable_names())
      known = known || n == name;
    FUZZ_CHECK(known);
  }
  auto again = t->expand(*matched);
  auto back_or_not = t->try_match(again);
  // The matcher's work is bounded by a budget linear in the URI
  // (uri_template.cpp); a re-expansion percent-encodes raw bytes, up to
  // three times longer, and may need more than its budget: a refusal by
  // design, not a wrong match (inputs fuzz/corpus/uri_template/
  // crash-746bc981...: adjacent expressions; crash-42d25e8b...: 17 names in
  // one, four repeated; crash-5e85fb6c...: a literal's bytes repeated
  // inside both values around it).
  if (back_or_not.gave_up)
    return 0;
  auto& back = back_or_not.values;
  // Reserved and fragment expansion keep a value's commas as they are
  // (',' is reserved), and a comma separates the values of a multi-variable
  // expression: "{+a,b}" reads "x%2Cy" as a="x,y", which expands to "x,y",
  // which reads back as a="x", b="y", or not at all when commas outnumber
  // the names (inputs fuzz/corpus/uri_template/crash-8d764963...,
  // crash-eaf86d63...).
  bool reserved = t->text().find("{+") != std::string::npos || t->text().find("{#") != std::string::npos;
  if (reserved && lists_several(t->text()) && holds_comma(*matched))
    return 0;
  FUZZ_CHECK(back.has_value());
  // They keep a value's pct-triplet text as it is too (RFC 6570 section
  // 3.2.3: "%3A" stays "%3A"), and a match reads every triplet decoded:
  // such a value reads back as what the triplet encodes (input
  // fuzz/corpus/uri_template/crash-27ef982f...).
  if (expressions == 1 && !(reserved && holds_triplet(*matched)))
    FUZZ_CHECK(*back == *matched);
  return 0;
}

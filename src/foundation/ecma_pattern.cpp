#include "foundation/ecma_pattern.hpp"

#include <stdexcept>

#include <boost/regex.hpp>

namespace cafmcp {

struct ecma_pattern::compiled {
  boost::regex re;
};

namespace {

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// ECMA-262's "\uXXXX" in Boost's spelling, "\x{XXXX}": to Boost, "\u" is
// the class of upper-case letters.
std::string boost_spelling(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '\\' || i + 1 == text.size()) {
      out += text[i];
      continue;
    }
    if (text[i + 1] == 'u' && i + 5 < text.size() && is_hex(text[i + 2]) && is_hex(text[i + 3])
        && is_hex(text[i + 4]) && is_hex(text[i + 5])) {
      out += "\\x{" + text.substr(i + 2, 4) + "}";
      i += 5;
    } else {
      out += text.substr(i, 2); // an escape and what it escapes, "\\" included
      ++i;
    }
  }
  return out;
}

// ECMA-262 makes a quantifier after a quantifier a SyntaxError ("a++",
// "a*{2}"; one lazy "?" is fine, "a+?"). Boost reads "a++" as possessive
// and nests the rest; std::regex nested them too, and a few dozen of them
// backtracked for minutes on a four-character key (fuzz/schema_dialect,
// input timeout-2d4f5fd1...). Classes and escapes hold no quantifiers.
const char* stacked_quantifier(const std::string& text) {
  bool after_quantifier = false, after_lazy = false, in_class = false;
  auto count_at = [&](std::size_t i) { // "{n...}": {n}, {n,} or {n,m}
    return text[i] == '{' && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9'
           && text.find('}', i) != std::string::npos;
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    bool quantifier = !in_class && (c == '*' || c == '+' || c == '?' || count_at(i));
    if (quantifier && after_quantifier) {
      if (c != '?' || after_lazy)
        return "a quantifier after a quantifier";
      after_lazy = true;
      continue;
    }
    after_quantifier = quantifier;
    after_lazy = false;
    if (c == '\\')
      ++i; // the escaped character is no syntax
    else if (in_class)
      in_class = c != ']';
    else if (c == '[')
      in_class = true;
    else if (quantifier && c == '{')
      i = text.find('}', i); // its digits and comma are no syntax
  }
  return nullptr;
}

} // namespace

ecma_pattern::ecma_pattern(const std::string& text) {
  if (text.size() > max_length)
    throw std::invalid_argument("a pattern longer than " + std::to_string(max_length) + " bytes");
  if (auto why = stacked_quantifier(text))
    throw std::invalid_argument(why);
  try {
    // As ECMA-262 without flags: "." matches no line terminator (no_mod_s),
    // "^" and "$" only at the ends of the string, not at a line break inside
    // it (no_mod_m; Boost's Perl default is multi-line, which would let
    // "^[a-z]+$" pass "abc\nANYTHING").
    re_ = std::make_shared<const compiled>(
      compiled{boost::regex(boost_spelling(text),
                            boost::regex::ECMAScript | boost::regex::no_mod_s | boost::regex::no_mod_m)});
  } catch (const std::exception& e) { // boost::regex_error, std::bad_alloc on a pattern too large
    throw std::invalid_argument(e.what());
  }
}

ecma_pattern::~ecma_pattern() = default;
ecma_pattern::ecma_pattern(const ecma_pattern&) = default;

bool ecma_pattern::search(std::string_view subject) const {
  return boost::regex_search(subject.begin(), subject.end(), re_->re);
}

} // namespace cafmcp

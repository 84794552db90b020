#include "foundation/ecma_pattern.hpp"

#include <algorithm>
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

} // namespace

ecma_pattern::ecma_pattern(const std::string& text) {
  if (text.size() > max_length)
    throw std::invalid_argument("a pattern longer than " + std::to_string(max_length) + " bytes");
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

void check_for_std_regex(std::string_view pattern) {
  if (pattern.size() > ecma_pattern::max_length)
    throw std::invalid_argument("a pattern longer than " + std::to_string(ecma_pattern::max_length) + " bytes");
  constexpr unsigned long max_count = 1000, max_copies = 100000;
  unsigned long copies = 1;
  bool in_class = false;
  // A quantifier right after a quantifier ("x++", "a*{2}"; a lazy "?"
  // once is fine) is a SyntaxError in ECMA-262, but std::regex nests them,
  // and a few dozen backtrack forever on a four-character key (found by
  // fuzz/schema_dialect: input timeout-2d4f5fd1... in the corpus).
  bool after_quantifier = false, after_lazy = false;
  auto digits_at = [&](std::size_t i) {
    std::size_t n = 0;
    while (i + n < pattern.size() && pattern[i + n] >= '0' && pattern[i + n] <= '9')
      ++n;
    return n;
  };
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    char c = pattern[i];
    bool count = c == '{' && !in_class && digits_at(i + 1) > 0;
    bool quantifier = !in_class && (c == '*' || c == '+' || c == '?' || count);
    if (quantifier && after_quantifier) {
      if (c != '?' || after_lazy)
        throw std::invalid_argument("a quantifier after a quantifier");
      after_lazy = true;
      continue;
    }
    after_quantifier = quantifier;
    after_lazy = false;
    if (c == '\\') {
      if (digits_at(i + 1) > 4)
        throw std::invalid_argument("a back-reference of more than 4 digits");
      ++i; // the escaped character is no syntax
    } else if (in_class) {
      in_class = c != ']';
    } else if (c == '[') {
      in_class = true;
    } else if (count) {
      // {n}, {n,} or {n,m}: every number counts (std::regex copies the
      // atom that often), and nested or not, their product bounds the copies.
      std::size_t j = i + 1;
      for (; j < pattern.size() && pattern[j] != '}'; ++j) {
        auto n = digits_at(j);
        if (n == 0)
          continue;
        if (n > 4 || std::stoul(std::string(pattern.substr(j, n))) > max_count)
          throw std::invalid_argument("a repetition count over " + std::to_string(max_count));
        copies *= std::max(1UL, std::stoul(std::string(pattern.substr(j, n))));
        if (copies > max_copies)
          throw std::invalid_argument("repetition counts that multiply past " + std::to_string(max_copies));
        j += n - 1;
      }
      i = j; // the closing brace
    }
  }
}

} // namespace cafmcp

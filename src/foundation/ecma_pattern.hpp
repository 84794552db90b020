#pragma once
// JSON Schema's regular expressions (ECMA-262 syntax), compiled and matched
// with Boost.Regex instead of std::regex. libstdc++'s std::regex matches by
// recursion, one stack frame per character a quantifier takes: a 50 KB
// string checked against "^[a-z]+$" overflowed an 8 MB stack and killed the
// whole server (a tools/call argument is enough). Its compiler also
// overflows a signed integer on a long repetition count, and expands
// "{n}" into n copies. Boost.Regex keeps its backtracking state on the heap
// and bounds it, and bounds the steps a match may take: past either bound it
// throws, and the caller reports the value as not checkable instead of
// crashing. (Found by fuzz/schema_dialect.)
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

namespace cafmcp {

class ecma_pattern {
public:
  /// Longer patterns are refused: no schema needs one, and compiling is
  /// work a hostile schema would choose.
  static constexpr std::size_t max_length = 4096;

  /// Throws std::invalid_argument with the reason when `text` is no
  /// pattern (ECMA-262's syntax: Boost's extensions that would read a
  /// SyntaxError such as "a++" as something else are refused) or is longer
  /// than max_length.
  explicit ecma_pattern(const std::string& text);
  ~ecma_pattern();
  ecma_pattern(const ecma_pattern&);
  ecma_pattern& operator=(const ecma_pattern&) = delete;

  /// Whether the pattern matches anywhere in `subject` (JSON Schema's
  /// patterns are not anchored). Throws std::runtime_error when the match
  /// passes Boost.Regex's bounds on work or memory.
  bool search(std::string_view subject) const;

private:
  struct compiled;
  std::shared_ptr<const compiled> re_;
};

} // namespace cafmcp

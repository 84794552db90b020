#pragma once
// Damage for mutation tests: a seeded generator that flips, cuts, repeats
// and splices hostile tokens into a valid input, so that a failure names an
// input that reproduces. Shared by the JSON-RPC parser's test (pure) and the
// HTTP transport's (a live server).
#include <array>
#include <cstddef>
#include <cstdint>
#include <random>
#include <string>

namespace cafmcp::test {

class mutator {
public:
  explicit mutator(std::uint64_t seed) : rng_(seed) {}

  /// One to three edits of `s`.
  std::string operator()(std::string s) {
    static const std::array<std::string, 19> tokens = {
      "{", "}", "[", "]", "\"", "\\", ",", ":", "null", "-0", "1e999999", "9223372036854775808",
      "\\u0000", "\\ud800", "\xff", "\xc3\x28", "\r\n", std::string(200, '['), std::string(300, 'a'),
    };
    int edits = 1 + static_cast<int>(pick(3));
    for (int e = 0; e < edits; ++e) {
      std::size_t at = s.empty() ? 0 : pick(s.size());
      switch (pick(5)) {
        case 0: // one byte, any value
          if (!s.empty())
            s[at] = static_cast<char>(pick(256));
          break;
        case 1: // a range cut out
          s.erase(at, pick(16) + 1);
          break;
        case 2: // a hostile token put in
          s.insert(at, tokens[pick(tokens.size())]);
          break;
        case 3: // a range repeated
          s.insert(at, s.substr(at, pick(32) + 1));
          break;
        default: // the end cut off
          s.resize(at);
      }
    }
    return s;
  }

  /// 0 .. n-1.
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

private:
  std::mt19937_64 rng_;
};

} // namespace cafmcp::test

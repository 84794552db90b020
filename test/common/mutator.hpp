#pragma once
// Damage for mutation tests: a seeded generator that flips, cuts, repeats
// and splices hostile tokens into a valid input, or (reshape) keeps a JSON
// text valid and puts values of the wrong type and size in its members, so
// that damage also reaches the handlers behind the parser. Seeded: a
// failure names an input that reproduces.
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>

#include "cafmcp/json.hpp"

namespace cafmcp::test {

using cafmcp::json;

class mutator {
public:
  explicit mutator(std::uint64_t seed) : rng_(seed) {}

  /// One to three edits of `s`.
  std::string operator()(std::string s) {
    static const std::array<std::string, 19> tokens = {
      "{",
      "}",
      "[",
      "]",
      "\"",
      "\\",
      ",",
      ":",
      "null",
      "-0",
      "1e999999",
      "9223372036854775808",
      "\\u0000",
      "\\ud800",
      "\xff",
      "\xc3\x28",
      "\r\n",
      std::string(200, '['),
      std::string(300, 'a'),
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

  /// `text` (JSON) with some members' values replaced by ones of another
  /// type or size, some members dropped and one added: still valid JSON.
  std::string reshape(const std::string& text) {
    auto doc = json::parse(text, nullptr, false);
    if (doc.is_discarded())
      return (*this)(text);
    walk(doc);
    return doc.dump();
  }

  /// 0 .. n-1.
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(rng_); }

private:
  json hostile() {
    switch (pick(12)) {
      case 0: return nullptr;
      case 1: return 0;
      case 2: return -1;
      case 3: return std::numeric_limits<std::int64_t>::min();
      case 4: return 1e308;
      case 5: return "";
      case 6: return std::string(5000, 'a');
      case 7: return json::array();
      case 8: return json::object();
      case 9: return true;
      case 10: return json::parse(R"([[[[{"a":[null]}]]]])");
      default: return json::parse(R"({"a":{"b":null},"c":[1,"2",null]})");
    }
  }

  void walk(json& v) {
    if (v.is_object()) {
      for (auto it = v.begin(); it != v.end();) {
        auto roll = pick(100);
        if (roll < 12) {
          *it = hostile();
          ++it;
        } else if (roll < 18) {
          it = v.erase(it);
        } else {
          walk(*it);
          ++it;
        }
      }
      static const std::array<const char*, 7> keys = {"extra",     "_meta", "cursor", "id",
                                                      "arguments", "uri",   "name"};
      if (pick(10) == 0)
        v[keys[pick(keys.size())]] = hostile();
    } else if (v.is_array()) {
      for (auto& x : v)
        if (pick(5) == 0)
          x = hostile();
        else
          walk(x);
    }
  }

  std::mt19937_64 rng_;
};

} // namespace cafmcp::test

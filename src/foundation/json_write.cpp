#include "foundation/json_write.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <string_view>

#include "foundation/json_plain.hpp"

namespace cafmcp {
namespace {

// nlohmann's serializer writing `j` at the end of `out`: for what this
// writer leaves to it (rare on the wire, and its formatting is its own).
void nlohmann_writes(std::string& out, const json& j) {
  nlohmann::detail::serializer<json> writer(nlohmann::detail::output_adapter<char>(out), ' ',
                                            json::error_handler_t::replace);
  writer.dump(j, false, false, 0);
}

// Bytes a string's text cannot copy as they are: the ones JSON escapes
// (control characters, `"` and `\`) and the first byte of every
// multi-byte UTF-8 sequence, which must be checked.
constexpr std::array<bool, 256> needs_a_look = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 256; ++c)
    t[c] = c < 0x20 || c == '"' || c == '\\' || c >= 0x80;
  return t;
}();

// The length of the well-formed UTF-8 sequence at s[i] (RFC 3629: no
// overlong forms, no surrogates, nothing past U+10FFFF), or 0. These are
// the sequences nlohmann's serializer copies unchanged.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  auto byte = [&](std::size_t k) -> unsigned {
    return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0;
  };
  auto tail = [&](std::size_t k) { return (byte(k) & 0xC0) == 0x80; };
  unsigned c = byte(0);
  if (c >= 0xC2 && c <= 0xDF)
    return tail(1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    return byte(1) >= lo && byte(1) <= hi && tail(2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    return byte(1) >= lo && byte(1) <= hi && tail(2) && tail(3) ? 4 : 0;
  }
  return 0;
}

// A control character as nlohmann writes it: the five short escapes, the
// rest as \u00XX in lower case.
void append_escape(std::string& out, unsigned char c) {
  switch (c) {
    case '"': out += "\\\""; return;
    case '\\': out += "\\\\"; return;
    case '\b': out += "\\b"; return;
    case '\t': out += "\\t"; return;
    case '\n': out += "\\n"; return;
    case '\f': out += "\\f"; return;
    case '\r': out += "\\r"; return;
    default: {
      constexpr char hex[] = "0123456789abcdef";
      char u[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
      out.append(u, sizeof u);
    }
  }
}

// False, with `out` as it was, when `s` holds invalid UTF-8.
bool append_string(std::string& out, std::string_view s) {
  auto start = out.size();
  out += '"';
  std::size_t copied = 0, i = 0;
  while (i < s.size()) {
    auto c = static_cast<unsigned char>(s[i]);
    if (!needs_a_look[c]) {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      auto n = utf8_sequence(s, i);
      if (n == 0) {
        out.resize(start);
        return false;
      }
      i += n;
      continue;
    }
    out.append(s.data() + copied, i - copied);
    append_escape(out, c);
    copied = ++i;
  }
  out.append(s.data() + copied, s.size() - copied);
  out += '"';
  return true;
}

template <class Integer>
void append_integer(std::string& out, Integer n) {
  char digits[24];
  auto end = std::to_chars(digits, digits + sizeof digits, n).ptr;
  out.append(digits, end);
}

} // namespace

void append_json_string(std::string& out, std::string_view s) {
  // Most strings a server writes (keys, names, a tool's text in ASCII) need
  // no escape and no look at UTF-8: judged sixteen bytes a step and copied
  // in one append. A byte at a time they were ~2 instructions a byte.
  if (is_plain_json_text(s)) {
    out += '"';
    out.append(s);
    out += '"';
    return;
  }
  if (!append_string(out, s))
    nlohmann_writes(out, json(s));
}

void append_json(std::string& out, const json& j) {
  switch (j.type()) {
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : j.get_ref<const json::object_t&>()) {
        if (!first)
          out += ',';
        first = false;
        append_json_string(out, key);
        out += ':';
        append_json(out, value);
      }
      out += '}';
      return;
    }
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& value : j.get_ref<const json::array_t&>()) {
        if (!first)
          out += ',';
        first = false;
        append_json(out, value);
      }
      out += ']';
      return;
    }
    case json::value_t::string: append_json_string(out, j.get_ref<const std::string&>()); return;
    case json::value_t::boolean: out += j.get<bool>() ? "true" : "false"; return;
    case json::value_t::null: out += "null"; return;
    case json::value_t::number_integer: append_integer(out, j.get<std::int64_t>()); return;
    case json::value_t::number_unsigned: append_integer(out, j.get<std::uint64_t>()); return;
    case json::value_t::number_float:
    case json::value_t::binary:
    case json::value_t::discarded: nlohmann_writes(out, j); return;
  }
}

} // namespace cafmcp

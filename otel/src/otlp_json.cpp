#include "cafmcp/otel/otlp_json.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "foundation/json_plain.hpp"
#include "hex_digits.hpp"
#include "member_span_ids.hpp"
#include "scoped_spans.hpp"

namespace cafmcp::otel {
namespace {

using detail::member_span_ids;
using json = nlohmann::json;

// Spans are written as text, field by field: building a JSON object per
// span (maps of strings) cost ~10 us each, the exporter thread's largest
// cost under fan-out. Strings that need escaping (or fixing: invalid UTF-8
// becomes U+FFFD) still go through the library.

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Every send span writes a session id, two timestamps and a span id (a
// group member's text was ~1.2k instructions, most of them in these four
// and in the string appends between them): each is put together in a
// buffer on the stack, quotes and punctuation included, and a member's
// whole tail is appended once.

using cafmcp::is_plain_json_text;

void append_string(std::string& out, std::string_view v) {
  if (!is_plain_json_text(v)) {
    out += dump(json(std::string(v)));
    return;
  }
  out += '"';
  out += v;
  out += '"';
}

template <class Int>
void append_int(std::string& out, Int n) {
  char buf[24];
  out.append(buf, std::to_chars(buf, buf + sizeof buf, n).ptr);
}

// The 8 decimal digits of n < 10^8 as the bytes of a word, the first
// digit lowest, each a value 0-9 (not yet ASCII): split in 4-digit, then
// 2-digit, then 1-digit lanes, every lane's division by 100 or 10 a
// multiplication and a shift that stays inside its lane (a timestamp's
// digits one pair at a time were ~180 instructions).
std::uint64_t digit_lanes(std::uint32_t n) {
  std::uint64_t v = n / 10'000 | std::uint64_t{n % 10'000} << 32; // 32-bit lanes < 10^4
  std::uint64_t q = (v * 10'486 >> 20) & 0x0000'007f'0000'007f;   // lane / 100
  v = q | (v - q * 100) << 16;                                    // 16-bit lanes < 100
  std::uint64_t t = (v * 103 >> 10) & 0x000f'000f'000f'000f;      // lane / 10
  return t | (v - t * 10) << 8;                                   // bytes < 10
}

constexpr std::uint64_t ascii_zeros = 0x3030'3030'3030'3030;

// The decimal digits of n, written backwards ending at `end`; returns
// where they begin. Up to 24 bytes before `end` may be written (the last
// block's leading zeros, then skipped).
char* write_decimal_backwards(char* end, std::uint64_t n) {
  while (n >= 100'000'000) {
    end -= 8;
    auto v = digit_lanes(static_cast<std::uint32_t>(n % 100'000'000)) + ascii_zeros;
    std::memcpy(end, &v, 8);
    n /= 100'000'000;
  }
  auto v = digit_lanes(static_cast<std::uint32_t>(n));
  // The first nonzero digit is the lowest nonzero byte; zero keeps one.
  int leading_zeros = v == 0 ? 7 : std::countr_zero(v) / 8;
  v += ascii_zeros;
  end -= 8;
  std::memcpy(end, &v, 8);
  return end + leading_zeros;
}

// 64-bit integers as decimal strings (beyond 2^53 JSON numbers lose digits).
constexpr std::size_t max_number_string = 22; // a quote, at most 20 digits, a quote

char* put_number_string(char* p, std::uint64_t n) {
  char buf[max_number_string + 4]; // room for the last block's leading zeros
  char* end = buf + sizeof buf;
  end[-1] = '"';
  char* begin = write_decimal_backwards(end - 1, n);
  *--begin = '"';
  auto size = static_cast<std::size_t>(end - begin);
  std::memcpy(p, begin, size);
  return p + size;
}

void append_number_string(std::string& out, std::uint64_t n) {
  char buf[max_number_string];
  out.append(buf, put_number_string(buf, n));
}

template <std::size_t N>
char* put_hex(char* p, const std::array<std::uint8_t, N>& bytes) {
  *p++ = '"';
  p = detail::put_hex_digits(p, bytes);
  *p++ = '"';
  return p;
}

template <std::size_t N>
void append_hex(std::string& out, const std::array<std::uint8_t, N>& bytes) {
  char buf[2 * N + 2];
  out.append(buf, put_hex(buf, bytes));
}

template <std::size_t N>
char* put_literal(char* p, const char (&text)[N]) {
  std::memcpy(p, text, N - 1);
  return p + N - 1;
}

void append_double(std::string& out, double x) {
  // Proto3's JSON mapping spells the non-finite values as strings; a bare
  // NaN would come out as null, which no receiver accepts.
  if (std::isnan(x))
    return void(out += "\"NaN\"");
  if (std::isinf(x))
    return void(out += x > 0 ? "\"Infinity\"" : "\"-Infinity\"");
  char buf[32];
  auto end = std::to_chars(buf, buf + sizeof buf, x).ptr; // shortest round-trip form
  out.append(buf, end);
  if (std::none_of(buf, end, [](char c) { return c == '.' || c == 'e'; }))
    out += ".0"; // stays a double for receivers that care
}

void append_value(std::string& out, const attribute_value& v) {
  std::visit(
    [&out](const auto& x) {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, std::string>) {
        out += "{\"stringValue\":";
        append_string(out, x);
      } else if constexpr (std::is_same_v<T, bool>) {
        out += x ? "{\"boolValue\":true" : "{\"boolValue\":false";
      } else if constexpr (std::is_same_v<T, std::int64_t>) {
        out += "{\"intValue\":\"";
        append_int(out, x);
        out += '"';
      } else {
        out += "{\"doubleValue\":";
        append_double(out, x);
      }
      out += '}';
    },
    v);
}

// An attribute whose key and string value need no escaping (nearly all:
// method names, ids, versions, URIs), written in one piece, its size known
// first. Eight appends an attribute, a capacity check and a copy each, were
// ~360 instructions of it, ~2,300 of a request span's six.
bool append_plain_attribute(std::string& out, bool comma, const std::string& key, const attribute_value& value) {
  auto* text = std::get_if<std::string>(&value);
  if (!text || !is_plain_json_text(key) || !is_plain_json_text(*text))
    return false;
  static constexpr char open[] = "{\"key\":\"", middle[] = "\",\"value\":{\"stringValue\":\"", close[] = "\"}}";
  auto at = out.size();
  out.resize(at + (comma ? 1 : 0) + (sizeof open - 1) + key.size() + (sizeof middle - 1) + text->size() +
             (sizeof close - 1));
  char* p = out.data() + at;
  if (comma)
    *p++ = ',';
  p = put_literal(p, open);
  std::memcpy(p, key.data(), key.size());
  p = put_literal(p + key.size(), middle);
  std::memcpy(p, text->data(), text->size());
  put_literal(p + text->size(), close);
  return true;
}

// The members of `"attributes":[...]`, without the brackets.
void append_attribute_list(std::string& out, const attributes& attrs) {
  for (std::size_t i = 0; i < attrs.size(); ++i) {
    if (append_plain_attribute(out, i > 0, attrs[i].first, attrs[i].second))
      continue;
    if (i > 0)
      out += ',';
    out += "{\"key\":";
    append_string(out, attrs[i].first);
    out += ",\"value\":";
    append_value(out, attrs[i].second);
    out += '}';
  }
}

void append_attributes(std::string& out, const attributes& attrs) {
  out += '[';
  append_attribute_list(out, attrs);
  out += ']';
}

// Low 8 bits: the W3C trace flags; 0x100 says 0x200 (parent or linked
// context is remote) is meaningful.
int flags_of(const span_context& ctx, bool remote) { return ctx.flags | 0x100 | (remote ? 0x200 : 0); }

// `"key":[{...},{...}],` with each object's members written by `write`;
// nothing when there are none (OTLP/JSON omits empty lists).
template <class T, class Write>
void append_objects(std::string& out, const char* key, const std::vector<T>& items, Write write) {
  if (items.empty())
    return;
  out += '"';
  out += key;
  out += "\":[";
  for (std::size_t i = 0; i < items.size(); ++i) {
    out += i > 0 ? ",{" : "{";
    write(items[i]);
    out += '}';
  }
  out += "],";
}

// Every field but spanId, the times and the attributes, each followed by
// a comma: the part a group's members share.
void append_shared_fields(std::string& out, const span_data& s) {
  out += "\"traceId\":";
  append_hex(out, s.context.trace);
  out += ",\"name\":";
  append_string(out, s.name);
  out += ",\"kind\":";
  append_int(out, static_cast<int>(s.kind));
  out += ",\"flags\":";
  append_int(out, flags_of(s.context, s.parent_remote));
  out += ",\"status\":{\"code\":";
  append_int(out, static_cast<int>(s.status));
  if (!s.status_message.empty()) {
    out += ",\"message\":";
    append_string(out, s.status_message);
  }
  out += "},";
  if (is_valid(s.parent)) {
    out += "\"parentSpanId\":";
    append_hex(out, s.parent);
    out += ',';
  }
  if (!s.context.tracestate.empty()) {
    out += "\"traceState\":";
    append_string(out, s.context.tracestate);
    out += ',';
  }
  append_objects(out, "events", s.events, [&out](const span_event& e) {
    out += "\"timeUnixNano\":";
    append_number_string(out, e.time_unix_nano);
    out += ",\"name\":";
    append_string(out, e.name);
    out += ",\"attributes\":";
    append_attributes(out, e.attributes);
  });
  append_objects(out, "links", s.links, [&out](const span_link& l) {
    out += "\"traceId\":";
    append_hex(out, l.context.trace);
    out += ",\"spanId\":";
    append_hex(out, l.context.span);
    out += ",\"attributes\":";
    append_attributes(out, l.attributes);
    out += ",\"flags\":";
    append_int(out, flags_of(l.context, l.context.remote));
    if (!l.context.tracestate.empty()) {
      out += ",\"traceState\":";
      append_string(out, l.context.tracestate);
    }
  });
}

void append_span(std::string& out, const span_data& s) {
  out += '{';
  append_shared_fields(out, s);
  // The id and the times together on the stack, appended at once.
  char buf[10 + 18 + 21 + max_number_string + 19 + max_number_string + 15];
  char* p = put_literal(buf, "\"spanId\":");
  p = put_hex(p, s.context.span);
  p = put_literal(p, ",\"startTimeUnixNano\":");
  p = put_number_string(p, s.start_unix_nano);
  p = put_literal(p, ",\"endTimeUnixNano\":");
  p = put_number_string(p, s.end_unix_nano);
  p = put_literal(p, ",\"attributes\":[");
  out.append(buf, p);
  append_attribute_list(out, s.attributes);
  out += "]}";
}

// A group's members as OTLP spans. What they share is written once; per
// member only the span id, the times and the member's attribute are
// appended.
class group_encoder {
public:
  explicit group_encoder(const span_group& g) : g_(g) {
    shared_.push_back('{');
    append_shared_fields(shared_, g.common);
    shared_ += "\"attributes\":[";
    append_attribute_list(shared_, g.common.attributes);
    if (!g.common.attributes.empty())
      shared_ += ',';
    shared_ += "{\"key\":";
    append_string(shared_, g.member_key);
    shared_ += ",\"value\":{\"stringValue\":";
  }

  /// About what one member takes (its value aside), to reserve for all.
  std::size_t member_size() const { return shared_.size() + tail_room; }

  /// A member: the shared text, then its value, id and times, put
  /// together on the stack and appended at once (a value that needs
  /// escaping, or a long one, is appended by itself first).
  void append(std::string& out, const span_group::member& m) {
    out += shared_;
    auto value = g_.value(m);
    char tail[max_inline_value + tail_room];
    char* p = tail;
    if (value.size() <= max_inline_value && is_plain_json_text(value)) {
      *p++ = '"';
      std::memcpy(p, value.data(), value.size());
      p += value.size();
      *p++ = '"';
    } else {
      append_string(out, value);
    }
    p = put_literal(p, "}}],\"spanId\":");
    p = put_hex(p, ids_.next());
    p = put_literal(p, ",\"startTimeUnixNano\":");
    p = put_time(p, m.start_unix_nano);
    p = put_literal(p, ",\"endTimeUnixNano\":");
    p = put_time(p, m.end_unix_nano);
    *p++ = '}';
    out.append(tail, p);
  }

private:
  static constexpr std::size_t max_inline_value = 64; // a session id fits
  // The rest of a member: its id, two times and the punctuation around them.
  static constexpr std::size_t tail_room = 2 + 13 + 18 + 21 + max_number_string + 19 + max_number_string + 1;

  // Sends run back to back, so a member's start is most often the member
  // before's end: its text is kept and copied, not made again.
  // And sends are microseconds apart: most often only the last eight of
  // the nineteen digits change, and only those are written again.
  char* put_time(char* p, std::uint64_t t) {
    if (t != last_time_) {
      constexpr std::uint64_t block = 100'000'000;
      if (last_time_ >= block && t / block == last_time_ / block) { // 9 digits or more, the same but the last 8
        auto digits = digit_lanes(static_cast<std::uint32_t>(t % block)) + ascii_zeros;
        std::memcpy(last_text_ + last_size_ - 1 - 8, &digits, 8); // before the closing quote
      } else {
        last_size_ = static_cast<std::size_t>(put_number_string(last_text_, t) - last_text_);
      }
      last_time_ = t;
    }
    std::memcpy(p, last_text_, last_size_);
    return p + last_size_;
  }

  const span_group& g_;
  std::string shared_;
  member_span_ids ids_;
  std::uint64_t last_time_ = 0;
  char last_text_[max_number_string] = {'"', '0', '"'};
  std::size_t last_size_ = 3;
};

void encode(std::string& body, const resource& res, const std::string& default_scope,
            const std::vector<span_data>& spans, const std::vector<std::unique_ptr<span_group>>& groups) {
  auto scopes = detail::by_scope(default_scope, spans, groups);
  body.assign("{\"resourceSpans\":[{\"resource\":");
  body += "{\"attributes\":";
  append_attributes(body, res.attributes);
  body += '}';
  body += ",\"scopeSpans\":[";
  for (std::size_t i = 0; i < scopes.size(); ++i) {
    auto& sc = scopes[i];
    json scope = {{"name", *sc.name}};
    if (!sc.version->empty())
      scope["version"] = *sc.version;
    if (i > 0)
      body += ',';
    body += "{\"scope\":" + dump(scope) + ",\"spans\":[";
    bool first = true;
    auto next = [&] {
      if (!first)
        body += ',';
      first = false;
    };
    for (auto* s : sc.spans) {
      next();
      append_span(body, *s);
    }
    for (auto* g : sc.groups) {
      group_encoder enc(*g);
      body.reserve(body.size() + g->members.size() * enc.member_size() + g->values.size());
      for (auto& m : g->members) {
        next();
        enc.append(body, m);
      }
    }
    body += "]}";
  }
  body += "]}]}";
}

} // namespace

std::string encode_otlp_json(const resource& res, const std::string& default_scope,
                             const std::vector<span_data>& spans) {
  std::string body;
  encode(body, res, default_scope, spans, {});
  return body;
}

std::string encode_otlp_json(const resource& res, const std::string& default_scope, const span_batch& batch) {
  std::string body;
  encode(body, res, default_scope, batch.spans, batch.groups);
  return body;
}

void encode_otlp_json(std::string& into, const resource& res, const std::string& default_scope,
                      const span_batch& batch) {
  encode(into, res, default_scope, batch.spans, batch.groups);
}

} // namespace cafmcp::otel

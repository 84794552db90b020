#include "cafmcp/otel/otlp_json.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstring>

#include <nlohmann/json.hpp>

#include "scoped_spans.hpp"

namespace cafmcp::otel {
namespace {

using json = nlohmann::json;

// Spans are written as text, field by field: building a JSON object per
// span (maps of strings) cost ~10 us each, the exporter thread's largest
// cost under fan-out. Strings that need escaping (or fixing: invalid UTF-8
// becomes U+FFFD) still go through the library.

std::string dump(const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); }

// Every send span writes a session id, two timestamps and a span id here
// (a span's text was ~1.6k instructions, half of them in these four): a
// string is checked with one table lookup per byte, and a number or an id
// is put together, quotes and all, in a buffer on the stack and appended
// once.

// Printable ASCII but `"` and `\`: copied as it is.
constexpr std::array<bool, 256> plain_bytes = [] {
  std::array<bool, 256> t{};
  for (int c = 0x20; c < 0x7f; ++c)
    t[c] = c != '"' && c != '\\';
  return t;
}();

void append_string(std::string& out, std::string_view v) {
  for (char c : v)
    if (!plain_bytes[static_cast<unsigned char>(c)]) {
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

// The decimal digits of n, written backwards ending at `end`, two at a
// time; returns where they begin.
char* write_decimal_backwards(char* end, std::uint64_t n) {
  static constexpr char pairs[] = "0001020304050607080910111213141516171819"
                                  "2021222324252627282930313233343536373839"
                                  "4041424344454647484950515253545556575859"
                                  "6061626364656667686970717273747576777879"
                                  "8081828384858687888990919293949596979899";
  while (n >= 100) {
    end -= 2;
    std::memcpy(end, pairs + 2 * (n % 100), 2);
    n /= 100;
  }
  if (n >= 10) {
    end -= 2;
    std::memcpy(end, pairs + 2 * n, 2);
  } else {
    *--end = static_cast<char>('0' + n);
  }
  return end;
}

// 64-bit integers as decimal strings (beyond 2^53 JSON numbers lose digits).
void append_number_string(std::string& out, std::uint64_t n) {
  char buf[22]; // a quote, at most 20 digits, a quote
  char* end = buf + sizeof buf;
  end[-1] = '"';
  char* begin = write_decimal_backwards(end - 1, n);
  *--begin = '"';
  out.append(begin, end);
}

template <std::size_t N>
void append_hex(std::string& out, const std::array<std::uint8_t, N>& bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  char buf[2 * N + 2];
  buf[0] = buf[2 * N + 1] = '"';
  for (std::size_t i = 0; i < N; ++i) {
    buf[1 + 2 * i] = digits[bytes[i] >> 4];
    buf[2 + 2 * i] = digits[bytes[i] & 0xf];
  }
  out.append(buf, sizeof buf);
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

// The members of `"attributes":[...]`, without the brackets.
void append_attribute_list(std::string& out, const attributes& attrs) {
  for (std::size_t i = 0; i < attrs.size(); ++i) {
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
  out += "\"spanId\":";
  append_hex(out, s.context.span);
  out += ",\"startTimeUnixNano\":";
  append_number_string(out, s.start_unix_nano);
  out += ",\"endTimeUnixNano\":";
  append_number_string(out, s.end_unix_nano);
  out += ",\"attributes\":";
  append_attributes(out, s.attributes);
  out += '}';
}

// A group's members as OTLP spans. What they share is written once; per
// member only the span id, the times and the member's attribute are
// appended.
class group_encoder {
public:
  explicit group_encoder(const span_group& g) : g_(g) {
    shared_ = "{";
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
  std::size_t member_size() const { return shared_.size() + 100; }

  void append(std::string& out, const span_group::member& m) const {
    out += shared_;
    append_string(out, g_.value(m));
    out += "}}],\"spanId\":";
    append_hex(out, random_span_id());
    out += ",\"startTimeUnixNano\":";
    append_number_string(out, m.start_unix_nano);
    out += ",\"endTimeUnixNano\":";
    append_number_string(out, m.end_unix_nano);
    out += '}';
  }

private:
  const span_group& g_;
  std::string shared_;
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

#pragma once
// Protocol Buffers' wire format, as much as OTLP's requests need: tags,
// varints, fixed-width numbers, length-delimited fields, and the
// KeyValue/AnyValue attributes every OTLP signal shares. Written by hand
// (why no protobuf library: otel/README.md); used by the trace and the
// metrics encoders.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>

#include "cafmcp/otel/span_data.hpp" // attributes

namespace cafmcp::otel::detail::protobuf {

// The messages every signal's request shares (common.proto, resource.proto).
namespace resource_msg {
constexpr int attributes = 1;
}
namespace scope_msg { // InstrumentationScope
constexpr int name = 1, version = 2;
}
namespace key_value {
constexpr int key = 1, value = 2;
}
namespace any_value {
constexpr int string_value = 1, bool_value = 2, int_value = 3, double_value = 4;
}

enum wire : std::uint32_t { varint = 0, fixed64 = 1, length = 2, fixed32 = 5 };

// Each writer comes twice: onto a pointer into room the caller has made
// (a group's members are written that way, their sizes known up front, with
// no capacity check per field), and appended to a string.

inline char* write_varint(char* p, std::uint64_t v) {
  while (v >= 0x80) {
    *p++ = static_cast<char>(v | 0x80);
    v >>= 7;
  }
  *p++ = static_cast<char>(v);
  return p;
}

inline void put_varint(std::string& out, std::uint64_t v) {
  char buf[10];
  out.append(buf, static_cast<std::size_t>(write_varint(buf, v) - buf));
}

inline std::size_t varint_size(std::uint64_t v) {
  std::size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

inline char* write_tag(char* p, int field, wire w) {
  return write_varint(p, (static_cast<std::uint64_t>(field) << 3) | w);
}

inline void put_tag(std::string& out, int field, wire w) {
  put_varint(out, (static_cast<std::uint64_t>(field) << 3) | w);
}

inline char* write_fixed64(char* p, int field, std::uint64_t v) {
  p = write_tag(p, field, fixed64);
  for (int i = 0; i < 8; ++i)
    *p++ = static_cast<char>(v >> (8 * i)); // little-endian on the wire
  return p;
}

inline void put_fixed64(std::string& out, int field, std::uint64_t v) {
  char buf[10 + 8];
  out.append(buf, static_cast<std::size_t>(write_fixed64(buf, field, v) - buf));
}

inline char* write_bytes(char* p, int field, const void* data, std::size_t size) {
  p = write_tag(p, field, length);
  p = write_varint(p, size);
  std::memcpy(p, data, size);
  return p + size;
}

inline void put_fixed32(std::string& out, int field, std::uint32_t v) {
  put_tag(out, field, fixed32);
  char buf[4];
  for (int i = 0; i < 4; ++i)
    buf[i] = static_cast<char>(v >> (8 * i));
  out.append(buf, 4);
}

inline void put_bytes(std::string& out, int field, const void* data, std::size_t size) {
  put_tag(out, field, length);
  put_varint(out, size);
  out.append(static_cast<const char*>(data), size);
}

inline void put_string(std::string& out, int field, std::string_view s) {
  put_bytes(out, field, s.data(), s.size());
}

/// A small nested message (a key/value, an event, a link, a status): its
/// length is inserted in front once it is written (a move of a few bytes).
class nested {
public:
  nested(std::string& out, int field) : out_(out), field_(field), at_(out.size()) {}
  ~nested() {
    std::string head;
    put_tag(head, field_, length);
    put_varint(head, out_.size() - at_);
    out_.insert(at_, head);
  }
  nested(const nested&) = delete;
  nested& operator=(const nested&) = delete;

private:
  std::string& out_;
  int field_;
  std::size_t at_;
};

// An AnyValue's content: its one field.
inline std::size_t any_value_size(const attribute_value& v) {
  return std::visit(
    [](const auto& x) -> std::size_t {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, std::string>)
        return 1 + varint_size(x.size()) + x.size();
      else if constexpr (std::is_same_v<T, bool>)
        return 1 + 1;
      else if constexpr (std::is_same_v<T, std::int64_t>)
        return 1 + varint_size(static_cast<std::uint64_t>(x)); // ten bytes when negative
      else
        return 1 + 8;
    },
    v);
}

inline char* write_any_value(char* p, const attribute_value& v) {
  return std::visit(
    [p](const auto& x) {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, std::string>) {
        return write_bytes(p, any_value::string_value, x.data(), x.size());
      } else if constexpr (std::is_same_v<T, bool>) {
        return write_varint(write_tag(p, any_value::bool_value, varint), x ? 1 : 0);
      } else if constexpr (std::is_same_v<T, std::int64_t>) {
        return write_varint(write_tag(p, any_value::int_value, varint), static_cast<std::uint64_t>(x));
      } else {
        std::uint64_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        return write_fixed64(p, any_value::double_value, bits);
      }
    },
    v);
}

// A KeyValue's content: the key, then the value as an AnyValue.
inline std::size_t key_value_size(const std::string& key, std::size_t any) {
  return 1 + varint_size(key.size()) + key.size() + 1 + varint_size(any) + any;
}

/// Each attribute as field `field`, a KeyValue. Sizes first, bytes second:
/// every length is known before its message is written, so the list goes
/// into room made for it at once (writing each KeyValue and AnyValue, then
/// inserting its length in front, was ~360 instructions an attribute, most
/// of a request span's encoding).
inline void put_attributes(std::string& out, int field, const attributes& attrs) {
  const auto tag_size = varint_size((static_cast<std::uint64_t>(field) << 3) | length); // the fields inside: one byte
  std::size_t total = 0;
  for (auto& [key, value] : attrs) {
    auto kv = key_value_size(key, any_value_size(value));
    total += tag_size + varint_size(kv) + kv;
  }
  auto at = out.size();
  out.resize(at + total);
  char* p = out.data() + at;
  for (auto& [key, value] : attrs) {
    auto any = any_value_size(value);
    p = write_tag(p, field, length);
    p = write_varint(p, key_value_size(key, any));
    p = write_bytes(p, key_value::key, key.data(), key.size());
    p = write_tag(p, key_value::value, length);
    p = write_varint(p, any);
    p = write_any_value(p, value);
  }
}

/// A double as protobuf's fixed64 bits.
inline void put_double(std::string& out, int field, double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  put_fixed64(out, field, bits);
}

} // namespace cafmcp::otel::detail::protobuf

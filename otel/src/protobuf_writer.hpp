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

inline void put_value(std::string& out, const attribute_value& v) {
  nested value(out, key_value::value);
  std::visit(
    [&out](const auto& x) {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, std::string>) {
        put_string(out, any_value::string_value, x);
      } else if constexpr (std::is_same_v<T, bool>) {
        put_tag(out, any_value::bool_value, varint);
        put_varint(out, x ? 1 : 0);
      } else if constexpr (std::is_same_v<T, std::int64_t>) {
        put_tag(out, any_value::int_value, varint);
        put_varint(out, static_cast<std::uint64_t>(x)); // int64: two's complement, ten bytes when negative
      } else {
        std::uint64_t bits;
        std::memcpy(&bits, &x, sizeof bits);
        put_fixed64(out, any_value::double_value, bits);
      }
    },
    v);
}

inline void put_attributes(std::string& out, int field, const attributes& attrs) {
  for (auto& [key, value] : attrs) {
    nested kv(out, field);
    put_string(out, key_value::key, key);
    put_value(out, value);
  }
}

/// A double as protobuf's fixed64 bits.
inline void put_double(std::string& out, int field, double v) {
  std::uint64_t bits;
  std::memcpy(&bits, &v, sizeof bits);
  put_fixed64(out, field, bits);
}

} // namespace cafmcp::otel::detail::protobuf

#pragma once
// A finished span as exporters see it.
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "cafmcp/otel/context.hpp"

namespace cafmcp::otel {

using attribute_value = std::variant<std::string, std::int64_t, double, bool>;
using attributes = std::vector<std::pair<std::string, attribute_value>>;

/// OTLP's enum values.
enum class span_kind : int { internal = 1, server = 2, client = 3, producer = 4, consumer = 5 };
enum class status_code : int { unset = 0, ok = 1, error = 2 };

struct span_event {
  std::uint64_t time_unix_nano = 0;
  std::string name;
  otel::attributes attributes;
};

struct span_link {
  span_context context;
  otel::attributes attributes;
};

/// Who produced a span (a tracer's name, as OTLP's `scopeSpans[].scope`).
struct instrumentation_scope {
  std::string name;
  std::string version;
};

struct span_data {
  span_context context;
  span_id parent{};           // all zero: a root span
  bool parent_remote = false; // the parent came from another process
  std::string name;
  span_kind kind = span_kind::internal;
  std::uint64_t start_unix_nano = 0;
  std::uint64_t end_unix_nano = 0;
  otel::attributes attributes;
  std::vector<span_event> events;
  std::vector<span_link> links;
  status_code status = status_code::unset;
  std::string status_message;
  /// Shared by every span of one tracer; null: the exporter's default scope.
  std::shared_ptr<const instrumentation_scope> scope;
};

/// Sibling spans that differ only in id, timing and one attribute (the
/// sends of a broadcast): recorded compactly, expanded for export. Adding a
/// member allocates nothing per member beyond amortized growth (the values
/// live one after another in `values`), and draws no random number: members
/// are leaves that nothing refers to, so their span ids are drawn when they
/// are expanded, on the exporter's thread.
struct span_group {
  span_data common;       // name, kind, parent, trace, attributes; no span id
  std::string member_key; // the attribute that tells members apart
  struct member {
    std::uint64_t start_unix_nano;
    std::uint64_t end_unix_nano;
    std::uint32_t value_at;
    std::uint32_t value_size;
  };
  std::vector<member> members;
  std::string values;

  void add(std::uint64_t start_unix_nano, std::uint64_t end_unix_nano, std::string_view value) {
    members.push_back({start_unix_nano, end_unix_nano, static_cast<std::uint32_t>(values.size()),
                       static_cast<std::uint32_t>(value.size())});
    values.append(value);
  }
  /// Room for `n` members whose values are about as long as a session id.
  void reserve(std::size_t n) {
    members.reserve(n);
    values.reserve(n * 40);
  }
  std::string_view value(const member& m) const {
    return std::string_view(values).substr(m.value_at, m.value_size);
  }
  /// One member as a whole span, with a fresh span id.
  span_data expand(const member& m) const;
  std::vector<span_data> expand() const;
};

std::uint64_t now_unix_nano();

} // namespace cafmcp::otel

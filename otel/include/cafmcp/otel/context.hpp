#pragma once
// Trace and span ids, span contexts, and the W3C Trace Context format
// (`traceparent` / `tracestate`) they travel in.
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cafmcp::otel {

using trace_id = std::array<std::uint8_t, 16>;
using span_id = std::array<std::uint8_t, 8>;

std::string to_hex(const trace_id& id);
std::string to_hex(const span_id& id);
bool is_valid(const trace_id& id); // not all zero
bool is_valid(const span_id& id);

/// Random ids (never all zero) from a per-thread generator seeded by the OS.
trace_id random_trace_id();
span_id random_span_id();

struct span_context {
  trace_id trace{};
  span_id span{};
  std::uint8_t flags = 0; // bit 0: sampled
  std::string tracestate; // canonical W3C header; see trace_state.hpp
  bool remote = false;    // came from another process
  bool valid() const { return is_valid(trace) && is_valid(span); }
  bool sampled() const { return flags & 1; }
};

/// Strict W3C parsing: 55 characters, lowercase hex, version 00 (a later
/// version is read by its first four fields), never version ff, never
/// all-zero ids. `tracestate` is kept (in canonical form) when it follows
/// the W3C grammar, dropped otherwise: the parent stays usable either way.
std::optional<span_context> parse_traceparent(std::string_view traceparent, std::string_view tracestate = {});
std::string format_traceparent(const span_context& ctx);
bool valid_tracestate(std::string_view tracestate);

} // namespace cafmcp::otel

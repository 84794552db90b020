#pragma once
// The W3C Trace Context propagator: moves a span context into and out of a
// carrier (HTTP headers, MCP `params._meta`, ...) as `traceparent` and
// `tracestate`.
#include <optional>
#include <string_view>

#include "cafmcp/otel/context.hpp"

namespace cafmcp::otel {

/// Carriers adapt their own storage; header-name case folding, if the
/// transport needs it, is theirs to do.
class text_map_carrier {
public:
  virtual ~text_map_carrier() = default;
  /// Empty when the key is absent.
  virtual std::string_view get(std::string_view key) const = 0;
  virtual void set(std::string_view key, std::string_view value) = 0;
};

inline constexpr std::string_view traceparent_key = "traceparent";
inline constexpr std::string_view tracestate_key = "tracestate";

/// Writes nothing for an invalid context, so a receiver never sees a header
/// it must reject; `tracestate` only when there is one.
void inject(const span_context& ctx, text_map_carrier& carrier);
/// The remote parent the carrier names, or nullopt (no or malformed
/// `traceparent`). A malformed `tracestate` is dropped, the context kept.
std::optional<span_context> extract(const text_map_carrier& carrier);

} // namespace cafmcp::otel

#pragma once
// Session ids: unguessable, and (with more than one event loop) naming the
// loop that serves the session, so any loop that reads a request hands it
// to the right one without a shared table.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace cafmcp::http {

/// 128 bits from the kernel's CSPRNG, as 32 hex digits (visible ASCII). With
/// more than one loop, the last digit names the session's loop (124 random
/// bits are left: still unguessable).
std::string new_session_id(std::size_t loop, std::size_t loops);

/// The loop a session id names, when it names one of `loops` (ids name a
/// loop only when there is more than one).
std::optional<std::size_t> loop_of(std::string_view session_id, std::size_t loops);

} // namespace cafmcp::http

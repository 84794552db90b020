#pragma once
// Reading JSON text into a json value, for the messages a server reads on
// every request. nlohmann's own parser spends ~12k instructions on a
// 100-byte tools/call (a lexer that copies every character into a token
// buffer, one virtual-free but branchy step per byte); simdjson finds the
// structure of the same text in ~1.5k, and building the json value from
// its tape costs what nlohmann's parser spends building it anyway.
#include <cstddef>
#include <string_view>

#include "cafmcp/json.hpp"

namespace cafmcp {

/// What `json::parse(text)` returns, and what it throws: the same value
/// (integers signed or unsigned as nlohmann types them, a repeated key's
/// last value) and the same exceptions with the same messages. Text
/// simdjson declines (an error, a number beyond 64 bits, a byte order
/// mark), text that may hold the integer `-0`, and text longer than
/// `small_json_bytes` is parsed by nlohmann, which decides.
json parse_json(std::string_view text);

/// Text up to this size is read through a parser kept per thread; its
/// buffers grow to ~14x the largest such text (~230 KiB a thread at most).
/// Larger text goes to nlohmann: rare, and not worth memory kept forever.
inline constexpr std::size_t small_json_bytes = 16 * 1024;

} // namespace cafmcp

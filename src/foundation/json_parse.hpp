#pragma once
// Reading JSON text into a json value, for the messages a server reads on
// every request. nlohmann's own parser spends ~12k instructions on a
// 100-byte tools/call (a lexer that copies every character into a token
// buffer, one virtual-free but branchy step per byte); simdjson finds the
// structure of the same text in ~1.5k, and building the json value from
// its tape costs what nlohmann's parser spends building it anyway.
#include <cstddef>
#include <optional>
#include <string>
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

/// The top level of a JSON-RPC message: the six members a message may
/// have, each its own value, and the first other member's name. Built as
/// one json object, the envelope cost a map node per member to make, walk
/// and free (~2.5k instructions of a ~49k-instruction stdio tools/call).
struct json_envelope {
  enum class shape { object, array, scalar };
  shape top = shape::object; // members are read only from an object
  std::optional<json> id, jsonrpc, method, params, result, error;
  /// The first member not one of the six, in the order nlohmann's object
  /// keeps (byte-wise sorted): an error names the same one either way.
  std::optional<std::string> unknown;
  /// Read the quick way (simdjson), the two members every message has are
  /// kept as they are used, not as JSON values (a string each: an
  /// allocation, and its free, a message): `jsonrpc` when it is "2.0",
  /// `method` when it is a string. Either, when set, stands for its member,
  /// whose slot above is then empty.
  bool jsonrpc_2_0 = false;
  std::optional<std::string> method_name;

  /// Member `name` (one of the six) as a JSON value, whichever way it was
  /// kept; nullopt where the text has none. For checks (tests, fuzzing):
  /// it copies.
  std::optional<json> member(std::string_view name) const;
};

/// The envelope of `text`, each member as `parse_json` would build it (a
/// repeated member's last value), or nullopt where the text nests arrays
/// and objects deeper than `max_depth`. Depth is judged before validity,
/// and never by recursion: hostile nesting is refused, not followed. Throws
/// what `json::parse(text)` throws.
std::optional<json_envelope> read_envelope(std::string_view text, std::size_t max_depth);

/// Text up to this size is read through a parser kept per thread; its
/// buffers grow to ~14x the largest such text (~230 KiB a thread at most).
/// Larger text goes to nlohmann: rare, and not worth memory kept forever.
inline constexpr std::size_t small_json_bytes = 16 * 1024;

} // namespace cafmcp

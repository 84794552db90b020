#pragma once
// JSON-RPC 2.0 as MCP uses it: one message per text, no batches. Pure: no
// actors, no sockets. Everything above it (sessions, transports) goes through
// parse() and serialize(), so the strictness rules live in one place.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "cafmcp/json.hpp"

namespace cafmcp::jsonrpc {

/// Error codes used by cafmcp (JSON-RPC 2.0 plus MCP's resource-not-found).
namespace code {
inline constexpr int parse_error = -32700;
inline constexpr int invalid_request = -32600;
inline constexpr int method_not_found = -32601;
inline constexpr int invalid_params = -32602;
inline constexpr int internal_error = -32603;
inline constexpr int resource_not_found = -32002;
// 2026-07-28
inline constexpr int header_mismatch = -32020;
inline constexpr int missing_client_capability = -32021;
inline constexpr int unsupported_protocol_version = -32022;
/// cafmcp: the caller's token lacks a scope the tool, resource or prompt
/// needs (data.requiredScopes); over HTTP the answer is 403 with the
/// `insufficient_scope` challenge.
inline constexpr int insufficient_scope = -32030;
} // namespace code

/// A request id: an integer or a string (never null, per MCP).
using request_id = std::variant<std::int64_t, std::string>;

/// The id as JSON (number or string).
json to_json(const request_id& id);
/// The id as compact text, usable as a map key: `7` or `"abc"` (quoted).
std::string to_key(const request_id& id);
/// The id back from to_key's text; nullopt for any other text.
std::optional<request_id> from_key(std::string_view key);

struct error {
  int code = code::internal_error;
  std::string message;
  std::optional<json> data; // omitted from the wire when empty
};

struct request {
  request_id id;
  std::string method;
  std::optional<json> params; // always an object when present
};

struct notification {
  std::string method;
  std::optional<json> params; // always an object when present
};

struct response {
  request_id id;
  json result; // an object
};

struct error_response {
  std::optional<request_id> id; // absent when the request's id was unreadable
  error err;
};

using message = std::variant<request, notification, response, error_response>;

struct limits {
  std::size_t max_message_bytes = 4 * 1024 * 1024; // 4 MiB
  std::size_t max_depth = 64;                      // nesting of arrays/objects
};

/// Why a text is not one acceptable message. `id` is set when the text was
/// valid JSON with a readable id, so the error response can name it.
struct parse_failure {
  error err;
  std::optional<request_id> id;
};

/// Parses exactly one message with strict validation:
/// - size over limits.max_message_bytes -> -32600 (checked before parsing);
/// - nesting over limits.max_depth -> -32600 (checked without recursion);
/// - not JSON -> -32700; a JSON array (batch) -> -32600;
/// - `jsonrpc` must be exactly "2.0"; `method` a string; `id` an integer or
///   string (null, float, bool, object -> -32600); `params`, when present, an
///   object (MCP never uses positional params; null -> -32600);
/// - a response has exactly one of `result` (object) / `error` ({code:int,
///   message:string, data?}); unknown top-level members -> -32600.
std::variant<message, parse_failure> parse(std::string_view text, const limits& lim = {});

/// The four envelopes as JSON, for a caller that holds or extends one
/// (a `_meta` added later) before it goes out through wire_text(). Every
/// message cafmcp sends is built here or by serialize(), which uses them.
/// A null `params` (or error `data`) is left out, never sent as null.
json request_message(const json& id, std::string_view method, json params = nullptr);
json notification_message(std::string_view method, json params = nullptr);
json result_message(const json& id, json result);
json error_message(const json& id, int code, std::string message, json data = nullptr);

/// One line of compact JSON, no trailing newline. `params` is omitted when
/// empty (never `"params": null`); `error.data` omitted when empty.
std::string serialize(const message& msg);

/// Any JSON as one line for the wire. A string holding invalid UTF-8 (a
/// file name, bytes from a tool) gets U+FFFD for each bad byte; json::dump()
/// would throw, and in the notifier that ended every later broadcast.
std::string wire_text(const json& j);

// Convenience builders for the common cases.
std::string serialize_result(const request_id& id, const json& result);
std::string serialize_error(const std::optional<request_id>& id, const error& err);
std::string serialize_notification(std::string_view method, const json* params);

/// The `error.code` of an answer, std::nullopt for a result (or an error
/// without an integer code). An answer that serialize(), serialize_result(),
/// serialize_error() or wire_text() wrote has its members in key order, so
/// it begins `{"error":{"code":` or `{"id":`: that is read from its first
/// bytes, without parsing the rest (an answer of a megabyte costs what one
/// of ninety bytes does). Any other text is parsed.
std::optional<int> answer_error_code(std::string_view answer);

} // namespace cafmcp::jsonrpc

#pragma once
// Which HTTP requests reach MCP at all: path, Host (DNS-rebinding
// protection), Origin, Accept and Content-Type, and the
// MCP-Protocol-Version header. Pure, so every status code is tested without
// a socket.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cafmcp/http_options.hpp"
#include "cafmcp/json_rpc.hpp"

namespace cafmcp::http {

struct request_facts {
  std::string_view method; // "POST", "GET", ...
  std::string_view target; // path and query
  std::optional<std::string_view> host;
  std::optional<std::string_view> origin;
  std::optional<std::string_view> accept;
  std::optional<std::string_view> content_type;
  std::optional<std::string_view> authorization;
  std::optional<std::string_view> protocol_version;
};

struct rejection {
  int status;
  std::string message;
  std::optional<int> code = std::nullopt; // JSON-RPC code of the body
};

/// The 2026-07-28 standard headers, which mirror body fields (SEP-2243).
struct mirrored_headers {
  std::optional<std::string_view> protocol_version; // MCP-Protocol-Version
  std::optional<std::string_view> method;           // Mcp-Method
  std::optional<std::string_view> name;             // Mcp-Name
};

/// A POST outside any session whose MCP-Protocol-Version is not one of the
/// session-based revisions: served statelessly (2026-07-28; an unknown
/// version is refused there with the versions we speak).
bool is_stateless_post(bool has_session_id, std::optional<std::string_view> protocol_version);

/// Stateless requests: the mirrored headers must be present and equal the
/// body (Mcp-Name decoded from its `=?base64?...?=` form): 400 with
/// HeaderMismatch (-32020) otherwise.
std::optional<rejection> check_mirrored_headers(const mirrored_headers& h, const jsonrpc::request& req);

/// The HTTP status of a stateless request's JSON answer: 404 for
/// method-not-found, 400 for the request's own faults (invalid params,
/// header mismatch, missing capability, unsupported version), else 200.
int stateless_answer_status(std::string_view answer);

struct request_policy {
  std::string path;
  std::vector<std::string> hosts;   // exact Host header values
  std::vector<std::string> origins; // exact Origin values

  static request_policy from(const http_options& opts, std::uint16_t bound_port);
  std::optional<rejection> check(const request_facts& r) const;
  /// Who may ask at all, on any path: Host, Origin (the bearer token is the
  /// router's, through its token_gate: a verifier may block).
  std::optional<rejection> check_caller(const request_facts& r) const;
};

} // namespace cafmcp::http

#pragma once
// A client's side of MCP authorization (2025-11-25 basic/authorization):
// where the HTTP client transport gets the bearer token it sends, and how a
// refusal gets it a new one. The transport asks bearer_token_source for
// the token of each request; a 401 (or a 403 insufficient_scope) makes it
// call renew() once with what the server said, then send the request again.
//
// oauth_client_credentials() is a source for machine clients: from the
// 401's `resource_metadata` it finds the Protected Resource Metadata (RFC
// 9728), the authorization server's metadata (RFC 8414 / OpenID), and asks
// its token endpoint with the `resource` parameter (RFC 8707); a 403 asks
// again with the scopes the server named (step-up).
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace cafmcp {

/// What a server's refusal said.
struct auth_challenge {
  int status = 401;              // 401, or 403 (insufficient_scope)
  std::string error;             // `error` ("invalid_token", "insufficient_scope"), or empty
  std::string scope;             // `scope`: what the server asks for
  std::string resource_metadata; // `resource_metadata`: where its metadata is
  std::string server_url;        // the MCP endpoint refused
  std::string refused_token;     // the token the refused request carried (empty: none)
};

/// The Bearer parameters of a WWW-Authenticate header value.
auth_challenge parse_bearer_challenge(std::string_view header);

/// Where the HTTP client transport gets its bearer token. Thread-safe.
class bearer_token_source {
public:
  virtual ~bearer_token_source() = default;
  /// The token to send now, or nullopt (none yet). Never blocks.
  virtual std::optional<std::string> current() = 0;
  /// The server refused `why.refused_token`: get a new token (may block on
  /// the network; the transport calls it off its event loop). True when
  /// current() now gives a token worth sending again; false or a
  /// std::runtime_error (saying why) when none can be had: the request
  /// fails with the server's refusal and that reason.
  virtual bool renew(const auth_challenge& why) = 0;
};

struct oauth_client_options {
  std::string client_id;
  std::string client_secret; // sent as client_secret_basic
  /// Scopes to ask for when the challenge names none (space-separated).
  std::string scope;
  /// PEM CAs to trust for the authorization server's and the metadata's
  /// https URLs instead of the system's.
  std::optional<std::string> ca_file;
  std::chrono::milliseconds timeout{10000};
};

/// The client credentials grant (RFC 6749 4.4) with discovery from the
/// server's challenge. Tokens are kept until they expire (or are refused).
std::shared_ptr<bearer_token_source> oauth_client_credentials(oauth_client_options o);

/// One fixed token (a token obtained elsewhere): renew() gives up.
std::shared_ptr<bearer_token_source> static_bearer_token(std::string token);

} // namespace cafmcp

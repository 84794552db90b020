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
#include <functional>
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
  /// Instead of a secret: a PEM private key the client proves itself with
  /// (private_key_jwt, RFC 7523), and its algorithm (ES256, ES384, RS256,
  /// EdDSA).
  std::string private_key_pem;
  std::string signing_algorithm = "ES256";
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

struct oauth_authorization_code_options {
  /// A pre-registered client (with its secret when confidential). Empty:
  /// the Client ID Metadata Document below when the authorization server
  /// supports those, else dynamic client registration (RFC 7591).
  std::string client_id;
  std::string client_secret;
  /// An https URL serving this client's metadata document (SEP-991).
  std::string client_metadata_url;
  std::string client_name = "cafmcp client";
  /// Where the authorization server sends the user's browser back.
  std::string redirect_uri = "http://127.0.0.1:8765/callback";
  /// Asked for when neither the challenge nor the resource's metadata
  /// names scopes (space-separated; empty: no scope parameter).
  std::string scope;
  /// Shows the user `authorization_url` (opens a browser) and returns the
  /// URL the authorization server redirected back to, carrying `code` and
  /// `state`. Throw to give up. Runs on the transport's renewal thread.
  std::function<std::string(const std::string& authorization_url)> authorize;
  std::optional<std::string> ca_file;
  std::chrono::milliseconds timeout{10000};
};

/// The authorization code grant with PKCE (S256) for interactive apps:
/// discovery from the challenge (RFC 9728, RFC 8414 / OpenID, and the
/// 2025-03-26 fallbacks to the server's own origin), registration
/// (pre-registered, metadata document, or dynamic), the `resource`
/// parameter, refresh tokens, and step-up on insufficient_scope.
std::shared_ptr<bearer_token_source> oauth_authorization_code(oauth_authorization_code_options o);

/// One fixed token (a token obtained elsewhere): renew() gives up.
std::shared_ptr<bearer_token_source> static_bearer_token(std::string token);

} // namespace cafmcp

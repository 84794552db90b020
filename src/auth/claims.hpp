#pragma once
// What a token's claims (or an introspection answer) must say, and the
// identity they give. Pure: the clock is an argument.
#include <chrono>
#include <string>

#include "cafmcp/auth.hpp"

namespace cafmcp::auth::detail {

struct claim_rules {
  std::string issuer;   // `iss` must equal it (empty: not checked)
  std::string audience; // `aud` (a string or an array) must name it (empty: not checked)
  std::chrono::seconds skew{60};
  bool require_exp = true;
};

/// Empty when the claims pass, else why not (the 401's error_description).
std::string check_claims(const json& claims, const claim_rules& rules, std::chrono::system_clock::time_point now);

/// subject (`sub`, else the client id), client id (`client_id`, else
/// `azp`), scopes (`scope` as a space-separated string, or `scp` as an
/// array), expiry (`exp`), and the claims themselves.
identity identity_of(const json& claims);

} // namespace cafmcp::auth::detail

#include <gtest/gtest.h>

#include "auth/claims.hpp"

namespace cafmcp::auth::detail {
namespace {

using namespace std::chrono;

const system_clock::time_point now = system_clock::time_point(seconds(1'800'000'000));
const claim_rules rules{"https://as.test", "https://mcp.test/mcp", seconds(30), true};

json good() {
  return {{"iss", "https://as.test"}, {"aud", "https://mcp.test/mcp"}, {"sub", "alice"}, {"exp", 1'800'000'600}};
}

TEST(Claims, AGoodTokenPasses) { EXPECT_EQ(check_claims(good(), rules, now), ""); }

TEST(Claims, ExpiryAndNotBeforeHoldWithinTheSkewOnly) {
  auto c = good();
  c["exp"] = 1'800'000'000 - 30; // at the edge of the skew
  EXPECT_EQ(check_claims(c, rules, now), "");
  c["exp"] = 1'800'000'000 - 31;
  EXPECT_EQ(check_claims(c, rules, now), "token expired");
  c = good();
  c["nbf"] = 1'800'000'030;
  EXPECT_EQ(check_claims(c, rules, now), "");
  c["nbf"] = 1'800'000'031;
  EXPECT_EQ(check_claims(c, rules, now), "token not yet valid");
  c = good();
  c.erase("exp");
  EXPECT_EQ(check_claims(c, rules, now), "token has no exp");
  c["exp"] = "tomorrow";
  EXPECT_EQ(check_claims(c, rules, now), "exp is not a number");
}

TEST(Claims, IssuerAndAudienceMustBeThisServers) {
  auto c = good();
  c["iss"] = "https://evil.test";
  EXPECT_EQ(check_claims(c, rules, now), "token issued by another issuer");
  c = good();
  c["aud"] = "https://other.test/mcp";
  EXPECT_EQ(check_claims(c, rules, now), "token audience is not this resource");
  c["aud"] = json::array({"https://other.test/mcp", "https://mcp.test/mcp"});
  EXPECT_EQ(check_claims(c, rules, now), "");
  c.erase("aud");
  EXPECT_EQ(check_claims(c, rules, now), "token audience is not this resource");
}

TEST(Claims, TheIdentityNamesSubjectClientScopesAndExpiry) {
  auto c = good();
  c["client_id"] = "app";
  c["scope"] = "mcp:read  mcp:write";
  auto id = identity_of(c);
  EXPECT_EQ(id.subject, "alice");
  EXPECT_EQ(id.client_id, "app");
  EXPECT_EQ(id.scopes, (std::vector<std::string>{"mcp:read", "mcp:write"}));
  EXPECT_TRUE(id.has_scopes({"mcp:write"}));
  EXPECT_FALSE(id.has_scope("admin"));
  ASSERT_TRUE(id.expires_at);
  EXPECT_EQ(system_clock::to_time_t(*id.expires_at), 1'800'000'600);
  // Client credentials: no user, the client is the subject; `scp` arrays.
  auto m = identity_of(json{{"azp", "svc"}, {"scp", {"a", "b"}}});
  EXPECT_EQ(m.subject, "svc");
  EXPECT_EQ(m.client_id, "svc");
  EXPECT_EQ(m.scopes.size(), 2u);
  EXPECT_FALSE(m.expires_at);
}

} // namespace
} // namespace cafmcp::auth::detail

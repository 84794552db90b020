#include <gtest/gtest.h>

#include "cafmcp/auth_verifiers.hpp"

#include "local_as.hpp"
#include "test_keys.hpp"

namespace cafmcp::auth {
namespace {

using test::local_as;
using test::test_key;

const std::string issuer = "https://as.test", audience = "https://mcp.test/mcp";

json claims(json extra = json::object()) {
  auto now = std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch());
  json c{{"iss", issuer}, {"aud", audience}, {"sub", "alice"}, {"client_id", "app"},
         {"scope", "mcp:read"}, {"iat", now.count()}, {"exp", now.count() + 600}};
  c.update(extra);
  return c;
}

struct JwtVerifier : ::testing::Test {
  test_key rsa = test_key::rsa("k1"), ec = test_key::ec("k2"), ed = test_key::ed25519("k3");
  json served = test::jwks({&rsa, &ec, &ed});
  local_as as{[this](const local_as::asked&) { return std::pair{200, served.dump()}; }};

  std::shared_ptr<token_verifier> make(std::chrono::seconds refetch = std::chrono::seconds(10)) {
    jwt_options o;
    o.issuer = issuer;
    o.audience = audience;
    o.jwks_uri = as.url("/jwks");
    o.min_refetch_interval = refetch;
    return jwt_verifier(o);
  }
};

TEST_F(JwtVerifier, AValidTokenGivesItsIdentity) {
  auto v = make();
  for (auto* k : {&rsa, &ec, &ed}) {
    auto r = v->verify(k->jwt(claims()));
    ASSERT_EQ(r.kind, verdict::valid) << k->alg << ": " << r.reason;
    EXPECT_EQ(r.who->subject, "alice");
    EXPECT_EQ(r.who->client_id, "app");
    EXPECT_TRUE(r.who->has_scope("mcp:read"));
  }
  EXPECT_EQ(as.count("/jwks"), 1); // fetched once, kept
}

TEST_F(JwtVerifier, EveryBadTokenIsRefusedWithItsReason) {
  auto v = make();
  auto now = claims()["iat"].get<long>();
  struct bad_case {
    std::string token, reason;
  };
  for (auto& [token, reason] : std::vector<bad_case>{
         {rsa.jwt(claims({{"exp", now - 3600}})), "token expired"},
         {rsa.jwt(claims({{"nbf", now + 3600}})), "token not yet valid"},
         {rsa.jwt(claims({{"aud", "https://other.test/mcp"}})), "token audience is not this resource"},
         {rsa.jwt(claims({{"iss", "https://evil.test"}})), "token issued by another issuer"},
         {test::unsigned_jwt(claims(), "k1"), "alg 'none' is not accepted"},
         {test::hs256_jwt(claims(), rsa.public_pem(), "k1"), "alg 'HS256' is not accepted"},
         {rsa.jwt(claims(), {{"alg", "ES256"}}), "key 'k1' is not for alg 'ES256'"},
         {ec.jwt(claims(), {{"kid", "k1"}}), "key 'k1' is not for alg 'ES256'"},
         {test_key::rsa("k1").jwt(claims()), "signature does not verify"}, // another key named k1
         {rsa.jwt(claims(), {{"crit", {"exp"}}}), "JWT has critical header parameters"},
         {"not-a-jwt", "not a JWT (three dot-separated parts)"},
       }) {
    auto r = v->verify(token);
    EXPECT_EQ(r.kind, verdict::invalid) << reason;
    EXPECT_FALSE(r.who);
    EXPECT_EQ(r.reason, reason);
  }
}

TEST_F(JwtVerifier, AnUnknownKidRefetchesTheKeysOnceAndFollowsARotation) {
  auto v = make(std::chrono::seconds(0));
  ASSERT_EQ(v->verify(rsa.jwt(claims())).kind, verdict::valid);
  auto rotated = test_key::rsa("k9");
  // k1 retired, k9 new (through the server's own lock: its thread reads it)
  as.set([keys = test::jwks({&rotated})](const local_as::asked&) { return std::pair{200, keys.dump()}; });
  auto r = v->verify(rotated.jwt(claims()));
  ASSERT_EQ(r.kind, verdict::valid) << r.reason;
  EXPECT_EQ(as.count("/jwks"), 2);
  // The retired key's tokens fail after the rotation.
  EXPECT_EQ(v->verify(rsa.jwt(claims())).kind, verdict::invalid);
}

TEST_F(JwtVerifier, MadeUpKidsCostOneFetchPerInterval) {
  auto v = make(std::chrono::seconds(3600));
  ASSERT_EQ(v->verify(rsa.jwt(claims())).kind, verdict::valid);
  auto stranger = test_key::rsa("nobody");
  for (int i = 0; i < 20; ++i) {
    auto r = v->verify(stranger.jwt(claims(), {{"kid", "kid-" + std::to_string(i)}}));
    EXPECT_EQ(r.kind, verdict::invalid);
    EXPECT_EQ(r.reason, "unknown key id 'kid-" + std::to_string(i) + "'");
  }
  EXPECT_EQ(as.count("/jwks"), 1);
}

TEST_F(JwtVerifier, AnUnreachableKeySetIsUnavailableNotInvalid) {
  jwt_options o;
  o.issuer = issuer;
  o.audience = audience;
  o.jwks_uri = "http://127.0.0.1:1/jwks"; // nothing listens on port 1
  o.fetch.timeout = std::chrono::milliseconds(2000);
  auto r = jwt_verifier(o)->verify(rsa.jwt(claims()));
  EXPECT_EQ(r.kind, verdict::unavailable);
  EXPECT_NE(r.reason.find("keys cannot be read"), std::string::npos) << r.reason;
}

TEST(Introspection, ActiveTokensForThisAudienceAreAcceptedAndCached) {
  local_as as{[](const local_as::asked& a) -> std::pair<int, std::string> {
    if (a.authorization != "Basic cnM6cyUyMGNyZXQ=") // rs : "s cret", form-encoded, base64
      return {401, R"({"error":"invalid_client"})"};
    if (a.body.find("token=good&") == 0)
      return {200, json{{"active", true}, {"sub", "bob"}, {"aud", audience}, {"scope", "mcp:read mcp:write"},
                        {"exp", 4102444800}}.dump()};
    if (a.body.find("token=elsewhere&") == 0)
      return {200, json{{"active", true}, {"sub", "bob"}, {"aud", "https://other.test"}}.dump()};
    return {200, R"({"active":false})"};
  }};
  introspection_options o;
  o.endpoint = as.url("/introspect");
  o.client_id = "rs";
  o.client_secret = "s cret";
  o.audience = audience;
  auto v = introspection_verifier(o);
  auto r = v->verify("good");
  ASSERT_EQ(r.kind, verdict::valid) << r.reason;
  EXPECT_EQ(r.who->subject, "bob");
  EXPECT_TRUE(r.who->has_scopes({"mcp:read", "mcp:write"}));
  EXPECT_EQ(v->verify("good").kind, verdict::valid);
  EXPECT_EQ(as.count("/introspect"), 1); // the second answer came from the cache
  EXPECT_EQ(v->verify("revoked").reason, "token is not active");
  EXPECT_EQ(v->verify("elsewhere").reason, "token audience is not this resource");
  o.client_secret = "wrong";
  auto r2 = introspection_verifier(o)->verify("good");
  EXPECT_EQ(r2.kind, verdict::unavailable);
  EXPECT_NE(r2.reason.find("401"), std::string::npos) << r2.reason;
}

TEST(StaticToken, OnlyTheExactTokenPasses) {
  auto v = static_token_verifier("s3cret");
  EXPECT_EQ(v->verify("s3cret").kind, verdict::valid);
  EXPECT_EQ(v->verify("s3cret").who->subject, "static-token");
  for (auto bad : {"", "s3cre", "s3cret ", "S3cret"})
    EXPECT_EQ(v->verify(bad).kind, verdict::invalid) << bad;
}

TEST(Discovery, FindsTheIssuersMetadataAndRefusesAnImpostor) {
  std::string self;
  local_as as{[&self](const local_as::asked& a) -> std::pair<int, std::string> {
    if (a.target == "/.well-known/oauth-authorization-server/tenant")
      return {404, "{}"};
    if (a.target == "/tenant/.well-known/openid-configuration")
      return {200, json{{"issuer", self}, {"jwks_uri", self + "/jwks"}, {"token_endpoint", self + "/token"}}.dump()};
    return {404, "{}"};
  }};
  self = as.url("/tenant");
  auto md = discover_authorization_server(self);
  EXPECT_EQ(md.jwks_uri, self + "/jwks");
  EXPECT_EQ(md.token_endpoint, self + "/token");
  EXPECT_EQ(as.count("/.well-known/oauth-authorization-server/tenant"), 1); // RFC 8414 first
  auto other = as.url("/tenant2");
  EXPECT_THROW(discover_authorization_server(other), std::runtime_error);
  as.set([&self](const local_as::asked&) { return std::pair{200, json{{"issuer", "https://evil.test"}}.dump()}; });
  try {
    discover_authorization_server(self);
    FAIL() << "an impostor issuer was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("evil"), std::string::npos);
  }
}

} // namespace
} // namespace cafmcp::auth

namespace cafmcp::auth {
namespace {

struct named final : token_verifier {
  explicit named(std::string n) : name(std::move(n)) {}
  verdict verify(std::string_view) override { return verdict::refuse(name); }
  std::string name;
};

TEST(ByTokenShape, JwtShapedTokensGoToTheJwtVerifierOthersAreIntrospected) {
  auto v = by_token_shape(std::make_shared<named>("jwt"), std::make_shared<named>("opaque"));
  EXPECT_EQ(v->verify("eyJh.eyJz.c2ln").reason, "jwt");
  EXPECT_EQ(v->verify("a.b.").reason, "jwt");
  EXPECT_EQ(v->verify("0N2kq3-opaque_token").reason, "opaque");
  EXPECT_EQ(v->verify("a.b.c.d").reason, "opaque");
  EXPECT_EQ(v->verify("a+b.c.d").reason, "opaque");
}

} // namespace
} // namespace cafmcp::auth

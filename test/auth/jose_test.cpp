#include <gtest/gtest.h>

#include "auth/jose.hpp"
#include "test_keys.hpp"

namespace cafmcp::auth::detail {
namespace {

using test::test_key;

public_key imported(const test_key& k, bool with_alg = false) {
  std::string why;
  auto pk = import_jwk(k.jwk(with_alg), why);
  EXPECT_TRUE(pk) << why;
  return std::move(*pk);
}

bool verifies(const public_key& pk, const std::string& token) {
  std::string why;
  auto jws = parse_compact_jws(token, why);
  if (!jws)
    return false;
  return verify_signature(pk, jws->header["alg"].get<std::string>(), jws->signing_input, jws->signature);
}

const json claims{{"sub", "alice"}, {"exp", 4102444800}};

TEST(Jose, EachSupportedAlgorithmVerifiesItsOwnSignature) {
  for (auto& k : {test_key::rsa("r1"), test_key::rsa("p1", "PS256"), test_key::rsa("r3", "RS384"),
                  test_key::rsa("r5", "RS512"), test_key::ec("e1"), test_key::ec("e3", "P-384"),
                  test_key::ed25519("d1")}) {
    auto pk = imported(k);
    EXPECT_TRUE(verifies(pk, k.jwt(claims))) << k.alg;
  }
}

TEST(Jose, AnAlteredPayloadOrAnotherKeyFails) {
  auto k = test_key::ec("e1"), other = test_key::ec("e2");
  auto token = k.jwt(claims);
  auto dot1 = token.find('.'), dot2 = token.rfind('.');
  auto forged = token.substr(0, dot1 + 1) + test::b64url(json{{"sub", "mallory"}, {"exp", 4102444800}}.dump())
                + token.substr(dot2);
  EXPECT_FALSE(verifies(imported(k), forged));
  EXPECT_FALSE(verifies(imported(other), token));
  auto r = test_key::rsa("r1");
  auto rt = r.jwt(claims);
  // A character inside the signature (the last one may carry only
  // padding bits, which decode the same).
  auto& c = rt[rt.rfind('.') + 10];
  c = c == 'A' ? 'B' : 'A';
  EXPECT_FALSE(verifies(imported(r), rt));
}

TEST(Jose, AlgorithmConfusionIsRefusedBeforeAnyCheck) {
  auto rsa = imported(test_key::rsa("r1"));
  auto ec = imported(test_key::ec("e1"));
  auto ed = imported(test_key::ed25519("d1"));
  EXPECT_FALSE(key_fits(rsa, "HS256"));
  EXPECT_FALSE(key_fits(rsa, "none"));
  EXPECT_FALSE(key_fits(rsa, "ES256"));
  EXPECT_FALSE(key_fits(ec, "RS256"));
  EXPECT_FALSE(key_fits(ec, "ES384")); // a P-256 key
  EXPECT_FALSE(key_fits(ed, "ES256"));
  EXPECT_TRUE(key_fits(rsa, "PS256"));
  // A JWK that names its algorithm verifies that one only.
  auto pinned = imported(test_key::rsa("r2"), true);
  EXPECT_TRUE(key_fits(pinned, "RS256"));
  EXPECT_FALSE(key_fits(pinned, "PS256"));
  // HS256 keyed with the RSA public key's PEM: the signature is never
  // checked as an HMAC.
  auto k = test_key::rsa("r1");
  EXPECT_FALSE(verifies(imported(k), test::hs256_jwt(claims, k.public_pem(), "r1")));
  EXPECT_FALSE(verifies(imported(k), test::unsigned_jwt(claims, "r1")));
}

TEST(Jose, KeysThatCannotVerifyAreNotImported) {
  std::string why;
  EXPECT_FALSE(import_jwk(json{{"kty", "oct"}, {"k", "c2VjcmV0"}}, why));
  EXPECT_NE(why.find("oct"), std::string::npos);
  EXPECT_FALSE(import_jwk(test_key::rsa("short", "RS256", 1024).jwk(), why));
  EXPECT_NE(why.find("2048"), std::string::npos);
  auto enc = test_key::rsa("enc").jwk();
  enc["use"] = "enc";
  EXPECT_FALSE(import_jwk(enc, why));
  auto off_curve = test_key::ec("e1").jwk();
  off_curve["y"] = off_curve["x"];
  EXPECT_FALSE(import_jwk(off_curve, why));
  EXPECT_FALSE(import_jwk(json{{"kty", "OKP"}, {"crv", "X25519"}, {"x", "AAAA"}}, why));
  EXPECT_FALSE(import_jwk(json{{"kty", "RSA"}, {"n", 5}}, why));
  EXPECT_FALSE(import_jwk(json::array(), why));
}

TEST(Jose, MalformedCompactFormsAreRefusedWithAReason) {
  std::string why;
  for (std::string bad : {"", "a.b", "a.b.c.d", "!!.e30.", "e30.W10.", "bm90IGpzb24.e30."}) {
    why.clear();
    EXPECT_FALSE(parse_compact_jws(bad, why)) << bad;
    EXPECT_FALSE(why.empty()) << bad;
  }
  auto ok = parse_compact_jws("e30.e30.", why); // {} . {} . empty signature
  ASSERT_TRUE(ok);
  EXPECT_TRUE(ok->signature.empty());
}

} // namespace
} // namespace cafmcp::auth::detail

#pragma once
// Keys made in the test (OpenSSL 3), their JWKs, and JWTs signed with them:
// every token a verifier must accept or refuse, without an authorization
// server. Also the deliberately bad ones (alg none, HS256 keyed with the
// public key).
#include <memory>
#include <string>

#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include "cafmcp/json.hpp"
#include "foundation/base64.hpp"

namespace cafmcp::test {

inline std::string b64url(std::string_view s) {
  return cafmcp::detail::base64_encode(s, cafmcp::detail::base64_alphabet::url);
}

struct test_key {
  std::string kty, crv, alg, kid;
  std::shared_ptr<EVP_PKEY> key;

  static test_key rsa(std::string kid, std::string alg = "RS256", unsigned bits = 2048) {
    return {"RSA", "", std::move(alg), std::move(kid),
            std::shared_ptr<EVP_PKEY>(EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", static_cast<size_t>(bits)),
                                      EVP_PKEY_free)};
  }
  static test_key ec(std::string kid, std::string crv = "P-256") {
    auto alg = crv == "P-256" ? "ES256" : "ES384";
    auto group = crv == "P-256" ? "P-256" : "P-384";
    return {"EC", crv, alg, std::move(kid),
            std::shared_ptr<EVP_PKEY>(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", group), EVP_PKEY_free)};
  }
  static test_key ed25519(std::string kid) {
    return {"OKP", "Ed25519", "EdDSA", std::move(kid),
            std::shared_ptr<EVP_PKEY>(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"), EVP_PKEY_free)};
  }

  static std::string bn_param(EVP_PKEY* k, const char* name) {
    BIGNUM* bn = nullptr;
    EVP_PKEY_get_bn_param(k, name, &bn);
    std::string out(static_cast<std::size_t>(BN_num_bytes(bn)), '\0');
    BN_bn2bin(bn, reinterpret_cast<unsigned char*>(out.data()));
    BN_free(bn);
    return out;
  }

  /// The public JWK (with `alg` only when `with_alg`).
  json jwk(bool with_alg = false) const {
    json j{{"kty", kty}, {"kid", kid}, {"use", "sig"}};
    if (with_alg)
      j["alg"] = alg;
    if (kty == "RSA") {
      j["n"] = b64url(bn_param(key.get(), OSSL_PKEY_PARAM_RSA_N));
      j["e"] = b64url(bn_param(key.get(), OSSL_PKEY_PARAM_RSA_E));
    } else if (kty == "EC") {
      unsigned char buf[200];
      size_t len = 0;
      EVP_PKEY_get_octet_string_param(key.get(), OSSL_PKEY_PARAM_PUB_KEY, buf, sizeof buf, &len);
      std::size_t w = (len - 1) / 2;
      j["crv"] = crv;
      j["x"] = b64url(std::string(reinterpret_cast<char*>(buf) + 1, w));
      j["y"] = b64url(std::string(reinterpret_cast<char*>(buf) + 1 + w, w));
    } else {
      unsigned char buf[32];
      size_t len = sizeof buf;
      EVP_PKEY_get_raw_public_key(key.get(), buf, &len);
      j["crv"] = crv;
      j["x"] = b64url(std::string(reinterpret_cast<char*>(buf), len));
    }
    return j;
  }

  /// The public key as PEM (what an HS256 confusion attack keys HMAC with).
  std::string public_pem() const {
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_PUBKEY(bio, key.get());
    char* data = nullptr;
    long len = BIO_get_mem_data(bio, &data);
    std::string out(data, static_cast<std::size_t>(len));
    BIO_free(bio);
    return out;
  }

  std::string sign(std::string_view input, std::string_view as_alg = {}) const {
    auto a = as_alg.empty() ? std::string_view(alg) : as_alg;
    const EVP_MD* md = a == "RS384" || a == "ES384" ? EVP_sha384() : a == "RS512" ? EVP_sha512() : EVP_sha256();
    if (kty == "OKP")
      md = nullptr;
    EVP_MD_CTX* ctx = EVP_MD_CTX_new();
    EVP_PKEY_CTX* pctx = nullptr;
    EVP_DigestSignInit(ctx, &pctx, md, nullptr, key.get());
    if (a == "PS256") {
      EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING);
      EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST);
    }
    size_t len = 0;
    EVP_DigestSign(ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()), input.size());
    std::string sig(len, '\0');
    EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &len,
                   reinterpret_cast<const unsigned char*>(input.data()), input.size());
    sig.resize(len);
    EVP_MD_CTX_free(ctx);
    if (kty != "EC")
      return sig;
    // DER -> r || s
    auto* p = reinterpret_cast<const unsigned char*>(sig.data());
    ECDSA_SIG* es = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(sig.size()));
    int w = crv == "P-256" ? 32 : 48;
    std::string raw(static_cast<std::size_t>(2 * w), '\0');
    BN_bn2binpad(ECDSA_SIG_get0_r(es), reinterpret_cast<unsigned char*>(raw.data()), w);
    BN_bn2binpad(ECDSA_SIG_get0_s(es), reinterpret_cast<unsigned char*>(raw.data()) + w, w);
    ECDSA_SIG_free(es);
    return raw;
  }

  /// A compact JWS of `claims` signed with this key (header `alg` may be
  /// overridden, `kid` set).
  std::string jwt(const json& claims, json header = json::object()) const {
    if (!header.contains("alg"))
      header["alg"] = alg;
    if (!header.contains("kid"))
      header["kid"] = kid;
    header["typ"] = "at+jwt";
    auto input = b64url(header.dump()) + "." + b64url(claims.dump());
    return input + "." + b64url(sign(input, header["alg"].get<std::string>()));
  }
};

inline json jwks(std::initializer_list<const test_key*> keys) {
  json list = json::array();
  for (auto* k : keys)
    list.push_back(k->jwk());
  return json{{"keys", list}};
}

/// `alg: none`, no signature.
inline std::string unsigned_jwt(const json& claims, std::string kid) {
  json header{{"alg", "none"}, {"kid", std::move(kid)}};
  return b64url(header.dump()) + "." + b64url(claims.dump()) + ".";
}

/// HS256 keyed with `secret` (the classic confusion: an RSA public key's PEM).
inline std::string hs256_jwt(const json& claims, const std::string& secret, std::string kid) {
  json header{{"alg", "HS256"}, {"kid", std::move(kid)}};
  auto input = b64url(header.dump()) + "." + b64url(claims.dump());
  unsigned char mac[32];
  unsigned int len = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(input.data()), input.size(), mac, &len);
  return input + "." + b64url(std::string(reinterpret_cast<char*>(mac), len));
}

} // namespace cafmcp::test

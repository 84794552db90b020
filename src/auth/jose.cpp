// On OpenSSL 3's EVP interface: one code path per key family, with the
// key type checked against the header's `alg` before anything is verified.
#include "auth/jose.hpp"

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ecdsa.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/pem.h>
#include <openssl/rsa.h>

#include <stdexcept>

#include "foundation/base64.hpp"

namespace cafmcp::auth::detail {

void pkey_free::operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }

namespace {

using cafmcp::detail::base64_alphabet;
using cafmcp::detail::base64_decode;

struct bn_free {
  void operator()(BIGNUM* b) const { BN_free(b); }
};
using bn_ptr = std::unique_ptr<BIGNUM, bn_free>;

std::optional<std::string> member_b64(const json& jwk, const char* name) {
  auto it = jwk.find(name);
  if (it == jwk.end() || !it->is_string())
    return std::nullopt;
  auto bytes = base64_decode(it->get_ref<const std::string&>(), base64_alphabet::url);
  if (!bytes || bytes->empty())
    return std::nullopt;
  return bytes;
}

std::string member_text(const json& jwk, const char* name) {
  auto it = jwk.find(name);
  return it != jwk.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bn_ptr to_bn(const std::string& bytes) {
  return bn_ptr(BN_bin2bn(reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()),
                          nullptr));
}

// EVP_PKEY_fromdata with the public-key selection: the one way OpenSSL 3
// builds a key from its parts without deprecated calls.
pkey_ptr from_params(const char* type, OSSL_PARAM_BLD* bld) {
  OSSL_PARAM* params = OSSL_PARAM_BLD_to_param(bld);
  EVP_PKEY_CTX* ctx = EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr);
  EVP_PKEY* key = nullptr;
  if (params && ctx && EVP_PKEY_fromdata_init(ctx) == 1)
    EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params);
  EVP_PKEY_CTX_free(ctx);
  OSSL_PARAM_free(params);
  return pkey_ptr(key);
}

pkey_ptr rsa_key(const json& jwk, std::string& why) {
  auto n = member_b64(jwk, "n"), e = member_b64(jwk, "e");
  if (!n || !e) {
    why = "RSA key without n and e";
    return nullptr;
  }
  auto bn_n = to_bn(*n), bn_e = to_bn(*e);
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  pkey_ptr key;
  if (bld && bn_n && bn_e && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, bn_n.get()) == 1
      && OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, bn_e.get()) == 1)
    key = from_params("RSA", bld);
  OSSL_PARAM_BLD_free(bld);
  if (!key)
    why = "RSA key OpenSSL refused";
  else if (EVP_PKEY_get_bits(key.get()) < 2048) {
    why = "RSA key shorter than 2048 bits";
    key.reset();
  }
  return key;
}

pkey_ptr ec_key(const json& jwk, const std::string& crv, std::string& why) {
  const char* group = crv == "P-256" ? "prime256v1" : crv == "P-384" ? "secp384r1" : nullptr;
  std::size_t size = crv == "P-256" ? 32 : 48;
  if (!group) {
    why = "EC curve '" + crv + "' not supported";
    return nullptr;
  }
  auto x = member_b64(jwk, "x"), y = member_b64(jwk, "y");
  if (!x || !y || x->size() != size || y->size() != size) {
    why = "EC key without x and y of the curve's size";
    return nullptr;
  }
  std::string point = "\x04" + *x + *y; // uncompressed
  OSSL_PARAM_BLD* bld = OSSL_PARAM_BLD_new();
  pkey_ptr key;
  if (bld && OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0) == 1
      && OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point.data(), point.size()) == 1)
    key = from_params("EC", bld);
  OSSL_PARAM_BLD_free(bld);
  if (!key)
    why = "EC key not on its curve";
  return key;
}

pkey_ptr okp_key(const json& jwk, const std::string& crv, std::string& why) {
  if (crv != "Ed25519") {
    why = "OKP curve '" + crv + "' not supported";
    return nullptr;
  }
  auto x = member_b64(jwk, "x");
  if (!x || x->size() != 32) {
    why = "Ed25519 key without a 32-byte x";
    return nullptr;
  }
  return pkey_ptr(EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nullptr,
                                              reinterpret_cast<const unsigned char*>(x->data()), x->size()));
}

const EVP_MD* digest_of(std::string_view alg) {
  if (alg == "RS256" || alg == "PS256" || alg == "ES256")
    return EVP_sha256();
  if (alg == "RS384" || alg == "ES384")
    return EVP_sha384();
  if (alg == "RS512")
    return EVP_sha512();
  return nullptr;
}

// JWS carries ECDSA signatures as r || s, fixed width; OpenSSL wants DER.
std::optional<std::string> ecdsa_der(std::string_view raw, std::size_t width) {
  if (raw.size() != 2 * width)
    return std::nullopt;
  ECDSA_SIG* sig = ECDSA_SIG_new();
  auto* p = reinterpret_cast<const unsigned char*>(raw.data());
  BIGNUM* r = BN_bin2bn(p, static_cast<int>(width), nullptr);
  BIGNUM* s = BN_bin2bn(p + width, static_cast<int>(width), nullptr);
  if (!sig || !r || !s || ECDSA_SIG_set0(sig, r, s) != 1) {
    BN_free(r);
    BN_free(s);
    ECDSA_SIG_free(sig);
    return std::nullopt;
  }
  unsigned char* der = nullptr;
  int len = i2d_ECDSA_SIG(sig, &der);
  ECDSA_SIG_free(sig);
  if (len <= 0)
    return std::nullopt;
  std::string out(reinterpret_cast<char*>(der), static_cast<std::size_t>(len));
  OPENSSL_free(der);
  return out;
}

} // namespace

std::optional<public_key> import_jwk(const json& jwk, std::string& why) {
  if (!jwk.is_object()) {
    why = "a JWK is a JSON object";
    return std::nullopt;
  }
  public_key k;
  k.kty = member_text(jwk, "kty");
  k.kid = member_text(jwk, "kid");
  k.crv = member_text(jwk, "crv");
  k.alg = member_text(jwk, "alg");
  auto use = member_text(jwk, "use");
  if (!use.empty() && use != "sig") {
    why = "key for '" + use + "', not for signatures";
    return std::nullopt;
  }
  if (k.kty == "RSA")
    k.key = rsa_key(jwk, why);
  else if (k.kty == "EC")
    k.key = ec_key(jwk, k.crv, why);
  else if (k.kty == "OKP")
    k.key = okp_key(jwk, k.crv, why);
  else
    why = "key type '" + k.kty + "' is not verified with (only RSA, EC and OKP public keys)";
  if (!k.key)
    return std::nullopt;
  return k;
}

std::optional<compact_jws> parse_compact_jws(std::string_view token, std::string& why) {
  auto first = token.find('.');
  auto second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
    why = "not a JWT (three dot-separated parts)";
    return std::nullopt;
  }
  auto header = base64_decode(token.substr(0, first), base64_alphabet::url);
  auto payload = base64_decode(token.substr(first + 1, second - first - 1), base64_alphabet::url);
  auto signature = base64_decode(token.substr(second + 1), base64_alphabet::url);
  if (!header || !payload || !signature) {
    why = "JWT part is not base64url";
    return std::nullopt;
  }
  compact_jws out;
  out.header = json::parse(*header, nullptr, false);
  out.claims = json::parse(*payload, nullptr, false);
  if (!out.header.is_object() || !out.claims.is_object()) {
    why = "JWT header or claims are not a JSON object";
    return std::nullopt;
  }
  out.signing_input = std::string(token.substr(0, second));
  out.signature = std::move(*signature);
  return out;
}

std::string sign_compact_jws(const std::string& private_key_pem, const std::string& alg, const json& claims) {
  BIO* bio = BIO_new_mem_buf(private_key_pem.data(), static_cast<int>(private_key_pem.size()));
  pkey_ptr key(bio ? PEM_read_bio_PrivateKey(bio, nullptr, nullptr, nullptr) : nullptr);
  BIO_free(bio);
  if (!key)
    throw std::runtime_error("the private key is not a PEM key OpenSSL reads");
  bool ec = alg == "ES256" || alg == "ES384", eddsa = alg == "EdDSA";
  if (!ec && !eddsa && alg != "RS256")
    throw std::runtime_error("cannot sign with alg '" + alg + "'");
  auto b64 = [](std::string_view s) { return cafmcp::detail::base64_encode(s, base64_alphabet::url); };
  auto input = b64(json{{"alg", alg}, {"typ", "JWT"}}.dump()) + "." + b64(claims.dump());
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  std::size_t len = 0;
  std::string sig;
  bool ok = ctx && EVP_DigestSignInit(ctx, nullptr, eddsa ? nullptr : digest_of(alg), nullptr, key.get()) == 1
            && EVP_DigestSign(ctx, nullptr, &len, reinterpret_cast<const unsigned char*>(input.data()), input.size())
                 == 1;
  if (ok) {
    sig.resize(len);
    ok = EVP_DigestSign(ctx, reinterpret_cast<unsigned char*>(sig.data()), &len,
                        reinterpret_cast<const unsigned char*>(input.data()), input.size())
         == 1;
    sig.resize(len);
  }
  EVP_MD_CTX_free(ctx);
  if (!ok)
    throw std::runtime_error("signing with alg '" + alg + "' failed (does the key fit it?)");
  if (ec) { // DER -> r || s, fixed width
    std::size_t width = alg == "ES256" ? 32 : 48;
    auto* p = reinterpret_cast<const unsigned char*>(sig.data());
    ECDSA_SIG* es = d2i_ECDSA_SIG(nullptr, &p, static_cast<long>(sig.size()));
    if (!es)
      throw std::runtime_error("ECDSA signature OpenSSL made is not DER");
    std::string raw(2 * width, '\0');
    BN_bn2binpad(ECDSA_SIG_get0_r(es), reinterpret_cast<unsigned char*>(raw.data()), static_cast<int>(width));
    BN_bn2binpad(ECDSA_SIG_get0_s(es), reinterpret_cast<unsigned char*>(raw.data()) + width, static_cast<int>(width));
    ECDSA_SIG_free(es);
    sig = std::move(raw);
  }
  return input + "." + b64(sig);
}

bool key_fits(const public_key& k, std::string_view alg) {
  if (!k.alg.empty() && k.alg != alg)
    return false;
  if (alg == "RS256" || alg == "RS384" || alg == "RS512" || alg == "PS256")
    return k.kty == "RSA";
  if (alg == "ES256")
    return k.kty == "EC" && k.crv == "P-256";
  if (alg == "ES384")
    return k.kty == "EC" && k.crv == "P-384";
  if (alg == "EdDSA")
    return k.kty == "OKP" && k.crv == "Ed25519";
  return false; // none, HS*, anything else
}

bool verify_signature(const public_key& k, std::string_view alg, std::string_view signing_input,
                      std::string_view signature) {
  if (!key_fits(k, alg))
    return false;
  std::string der;
  std::string_view sig = signature;
  if (k.kty == "EC") {
    auto d = ecdsa_der(signature, k.crv == "P-256" ? 32 : 48);
    if (!d)
      return false;
    der = std::move(*d);
    sig = der;
  }
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_PKEY_CTX* pctx = nullptr;
  bool ok = ctx && EVP_DigestVerifyInit(ctx, &pctx, k.kty == "OKP" ? nullptr : digest_of(alg), nullptr, k.key.get()) == 1;
  if (ok && alg == "PS256")
    ok = EVP_PKEY_CTX_set_rsa_padding(pctx, RSA_PKCS1_PSS_PADDING) == 1
         && EVP_PKEY_CTX_set_rsa_pss_saltlen(pctx, RSA_PSS_SALTLEN_DIGEST) == 1
         && EVP_PKEY_CTX_set_rsa_mgf1_md(pctx, EVP_sha256()) == 1;
  if (ok)
    ok = EVP_DigestVerify(ctx, reinterpret_cast<const unsigned char*>(sig.data()), sig.size(),
                          reinterpret_cast<const unsigned char*>(signing_input.data()), signing_input.size())
         == 1;
  EVP_MD_CTX_free(ctx);
  return ok;
}

} // namespace cafmcp::auth::detail

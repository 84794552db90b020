#include "protocol/request_state.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <sys/random.h>

#include "foundation/base64.hpp"

namespace cafmcp::protocol {
namespace {

std::string hex(const unsigned char* p, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (std::size_t i = 0; i < n; ++i) {
    out.push_back(digits[p[i] >> 4]);
    out.push_back(digits[p[i] & 15]);
  }
  return out;
}

std::string mac(const request_state_seal::key_bytes& key, std::string_view data) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(data.data()), data.size(), out, &len);
  return hex(out, len);
}

} // namespace

request_state_seal request_state_seal::with_random_key() {
  key_bytes key{};
  std::size_t got = 0;
  while (got < key.size()) {
    auto n = ::getrandom(key.data() + got, key.size() - got, 0);
    if (n > 0)
      got += static_cast<std::size_t>(n);
  }
  return request_state_seal(key);
}

request_state_seal request_state_seal::for_secret(std::string_view secret) {
  if (secret.empty())
    return with_random_key();
  key_bytes key{};
  SHA256(reinterpret_cast<const unsigned char*>(secret.data()), secret.size(), key.data());
  return request_state_seal(key);
}

std::string request_state_seal::seal(const json& state) const {
  auto payload = detail::base64_encode(state.dump(), detail::base64_alphabet::url);
  return payload + "." + mac(key_, payload);
}

std::optional<json> request_state_seal::open(std::string_view sealed) const {
  auto dot = sealed.rfind('.');
  if (dot == std::string_view::npos)
    return std::nullopt;
  auto payload = sealed.substr(0, dot);
  auto expected = mac(key_, payload);
  auto given = sealed.substr(dot + 1);
  if (given.size() != expected.size() || CRYPTO_memcmp(given.data(), expected.data(), given.size()) != 0)
    return std::nullopt;
  auto text = detail::base64_decode(payload, detail::base64_alphabet::url);
  if (!text)
    return std::nullopt;
  auto j = json::parse(*text, nullptr, false);
  if (j.is_discarded())
    return std::nullopt;
  return j;
}

} // namespace cafmcp::protocol

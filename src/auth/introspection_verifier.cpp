// RFC 7662: the token is POSTed to the authorization server, which says
// whether it is active and whose it is. Answers are cached (active or
// not) for cache_ttl and never past the token's `exp`, keyed by the
// token's SHA-256, so the cache holds no usable credential.
#include <mutex>
#include <unordered_map>

#include <openssl/sha.h>

#include "cafmcp/auth_verifiers.hpp"

#include "auth/as_client.hpp"
#include "auth/claims.hpp"
#include "foundation/base64.hpp"

namespace cafmcp::auth {
namespace {

std::string token_digest(std::string_view token) {
  unsigned char d[SHA256_DIGEST_LENGTH];
  SHA256(reinterpret_cast<const unsigned char*>(token.data()), token.size(), d);
  return std::string(reinterpret_cast<char*>(d), sizeof d);
}

class introspection final : public token_verifier {
public:
  explicit introspection(introspection_options o) : o_(std::move(o)), as_(o_.fetch) {
    auto credentials = detail::form_encode(o_.client_id) + ":" + detail::form_encode(o_.client_secret);
    basic_ = "Basic " + cafmcp::detail::base64_encode(credentials);
  }

  verdict verify(std::string_view token) override {
    auto key = token_digest(token);
    auto now = std::chrono::steady_clock::now();
    {
      std::lock_guard lock(mtx_);
      if (auto it = cache_.find(key); it != cache_.end()) {
        if (it->second.until > now)
          return it->second.answer;
        cache_.erase(it);
      }
    }
    std::string why;
    auto doc = as_.post_form(o_.endpoint, "token=" + detail::form_encode(token) + "&token_type_hint=access_token",
                             {{"Authorization", basic_}}, why);
    if (!doc)
      return verdict::cannot_tell("introspection failed: " + why);
    auto answer = judge(*doc);
    auto until = now + o_.cache_ttl;
    if (answer.who && answer.who->expires_at) {
      auto left = *answer.who->expires_at - std::chrono::system_clock::now();
      until = std::min(until, now + std::chrono::duration_cast<std::chrono::steady_clock::duration>(left));
    }
    std::lock_guard lock(mtx_);
    if (cache_.size() >= o_.cache_entries)
      evict(now);
    if (cache_.size() < o_.cache_entries)
      cache_[key] = {answer, until};
    return answer;
  }

private:
  verdict judge(const json& doc) const {
    auto active = doc.find("active");
    if (active == doc.end() || !active->is_boolean() || !active->get<bool>())
      return verdict::refuse("token is not active");
    detail::claim_rules rules{doc.contains("iss") ? o_.issuer : std::string(), o_.audience, std::chrono::seconds(0),
                              false};
    if (auto bad = detail::check_claims(doc, rules, std::chrono::system_clock::now()); !bad.empty())
      return verdict::refuse(bad);
    return verdict::accept(detail::identity_of(doc));
  }

  void evict(std::chrono::steady_clock::time_point now) {
    for (auto it = cache_.begin(); it != cache_.end();)
      it = it->second.until <= now ? cache_.erase(it) : std::next(it);
    if (cache_.size() >= o_.cache_entries) // all still fresh: start over rather than grow
      cache_.clear();
  }

  struct entry {
    verdict answer;
    std::chrono::steady_clock::time_point until;
  };
  introspection_options o_;
  detail::as_client as_;
  std::string basic_;
  std::mutex mtx_;
  std::unordered_map<std::string, entry> cache_;
};

} // namespace

std::shared_ptr<token_verifier> introspection_verifier(introspection_options o) {
  return std::make_shared<introspection>(std::move(o));
}

} // namespace cafmcp::auth

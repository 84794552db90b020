// Keys are read under a shared lock (every verification) and replaced
// whole after a fetch; one thread fetches at a time, and no more often than
// min_refetch_interval, so a flood of tokens with made-up kids costs one
// fetch per interval, not one per token.
#include <algorithm>
#include <mutex>
#include <shared_mutex>

#include "cafmcp/auth_verifiers.hpp"

#include "auth/as_client.hpp"
#include "auth/claims.hpp"
#include "auth/jose.hpp"

namespace cafmcp::auth {
namespace {

using detail::public_key;
using key_set = std::vector<std::shared_ptr<const public_key>>;

class jwt final : public token_verifier {
public:
  explicit jwt(jwt_options o) : o_(std::move(o)), as_(o_.fetch) {}

  verdict verify(std::string_view token) override {
    std::string why;
    auto jws = detail::parse_compact_jws(token, why);
    if (!jws)
      return verdict::refuse(why);
    auto alg_it = jws->header.find("alg");
    std::string alg = alg_it != jws->header.end() && alg_it->is_string() ? alg_it->get<std::string>() : "";
    if (std::find(o_.algorithms.begin(), o_.algorithms.end(), alg) == o_.algorithms.end() || alg == "none"
        || alg.rfind("HS", 0) == 0)
      return verdict::refuse("alg '" + alg + "' is not accepted");
    if (jws->header.contains("crit")) // no extension is understood here (RFC 7515 4.1.11)
      return verdict::refuse("JWT has critical header parameters");
    auto kid_it = jws->header.find("kid");
    std::string kid = kid_it != jws->header.end() && kid_it->is_string() ? kid_it->get<std::string>() : "";

    auto candidates = keys_for(kid, alg);
    if (candidates.empty() && !kid.empty() && knows(kid)) // a known key offered for another alg: confusion
      return verdict::refuse("key '" + kid + "' is not for alg '" + alg + "'");
    if (candidates.empty()) {
      auto fetched = refetch(why);
      if (!fetched && !have_keys())
        return verdict::cannot_tell("the authorization server's keys cannot be read: " + why);
      candidates = keys_for(kid, alg);
      if (candidates.empty())
        return verdict::refuse(kid.empty() ? "no key fits alg '" + alg + "'" : "unknown key id '" + kid + "'");
    }
    bool signed_ok = false;
    for (auto& k : candidates)
      if (detail::verify_signature(*k, alg, jws->signing_input, jws->signature)) {
        signed_ok = true;
        break;
      }
    if (!signed_ok)
      return verdict::refuse("signature does not verify");
    detail::claim_rules rules{o_.issuer, o_.audience, o_.clock_skew, true};
    if (auto bad = detail::check_claims(jws->claims, rules, std::chrono::system_clock::now()); !bad.empty())
      return verdict::refuse(bad);
    return verdict::accept(detail::identity_of(jws->claims));
  }

private:
  key_set keys_for(const std::string& kid, const std::string& alg) const {
    std::shared_lock lock(keys_mtx_);
    key_set out;
    for (auto& k : keys_)
      if ((kid.empty() || k->kid == kid) && detail::key_fits(*k, alg))
        out.push_back(k);
    return out;
  }

  bool knows(const std::string& kid) const {
    std::shared_lock lock(keys_mtx_);
    return std::any_of(keys_.begin(), keys_.end(), [&](auto& k) { return k->kid == kid; });
  }

  bool have_keys() const {
    std::shared_lock lock(keys_mtx_);
    return !keys_.empty();
  }

  bool refetch(std::string& why) {
    std::lock_guard fetching(fetch_mtx_);
    auto now = std::chrono::steady_clock::now();
    if (fetched_once_ && now - last_fetch_ < o_.min_refetch_interval) {
      why = "refetched less than " + std::to_string(o_.min_refetch_interval.count()) + " s ago";
      return false;
    }
    last_fetch_ = now;
    fetched_once_ = true;
    auto doc = as_.get_json(o_.jwks_uri, why);
    if (!doc)
      return false;
    auto list = doc->find("keys");
    if (list == doc->end() || !list->is_array()) {
      why = "JWKS has no keys array";
      return false;
    }
    key_set fresh;
    for (auto& jwk : *list) {
      std::string skipped;
      if (auto k = detail::import_jwk(jwk, skipped))
        fresh.push_back(std::make_shared<const public_key>(std::move(*k)));
    }
    std::unique_lock lock(keys_mtx_);
    keys_ = std::move(fresh);
    return true;
  }

  jwt_options o_;
  detail::as_client as_;
  mutable std::shared_mutex keys_mtx_;
  key_set keys_;
  std::mutex fetch_mtx_;
  bool fetched_once_ = false;
  std::chrono::steady_clock::time_point last_fetch_;
};

} // namespace

std::shared_ptr<token_verifier> jwt_verifier(jwt_options o) { return std::make_shared<jwt>(std::move(o)); }

} // namespace cafmcp::auth

#include "auth/claims.hpp"

#include <cmath>

namespace cafmcp::auth::detail {
namespace {

using std::chrono::seconds;
using std::chrono::system_clock;

std::optional<double> number(const json& claims, const char* name) {
  auto it = claims.find(name);
  if (it == claims.end() || !it->is_number())
    return std::nullopt;
  auto v = it->get<double>();
  if (!std::isfinite(v))
    return std::nullopt;
  return v;
}

std::string text(const json& claims, const char* name) {
  auto it = claims.find(name);
  return it != claims.end() && it->is_string() ? it->get<std::string>() : std::string();
}

double seconds_since_epoch(system_clock::time_point t) {
  return std::chrono::duration<double>(t.time_since_epoch()).count();
}

bool names(const json& aud, const std::string& audience) {
  if (aud.is_string())
    return aud.get_ref<const std::string&>() == audience;
  if (aud.is_array())
    for (auto& a : aud)
      if (a.is_string() && a.get_ref<const std::string&>() == audience)
        return true;
  return false;
}

} // namespace

std::string check_claims(const json& claims, const claim_rules& rules, system_clock::time_point now) {
  auto t = seconds_since_epoch(now);
  auto skew = static_cast<double>(rules.skew.count());
  auto exp = number(claims, "exp");
  if (claims.contains("exp") && !exp)
    return "exp is not a number";
  if (!exp && rules.require_exp)
    return "token has no exp";
  if (exp && t > *exp + skew)
    return "token expired";
  auto nbf = number(claims, "nbf");
  if (claims.contains("nbf") && !nbf)
    return "nbf is not a number";
  if (nbf && t + skew < *nbf)
    return "token not yet valid";
  if (!rules.issuer.empty() && text(claims, "iss") != rules.issuer)
    return "token issued by another issuer";
  if (!rules.audience.empty()) {
    auto aud = claims.find("aud");
    if (aud == claims.end() || !names(*aud, rules.audience))
      return "token audience is not this resource";
  }
  return {};
}

identity identity_of(const json& claims) {
  identity id;
  id.client_id = text(claims, "client_id");
  if (id.client_id.empty())
    id.client_id = text(claims, "azp");
  id.subject = text(claims, "sub");
  if (id.subject.empty())
    id.subject = id.client_id;
  if (auto scope = claims.find("scope"); scope != claims.end() && scope->is_string()) {
    const auto& s = scope->get_ref<const std::string&>();
    std::size_t at = 0;
    while (at < s.size()) {
      auto end = s.find(' ', at);
      if (end == std::string::npos)
        end = s.size();
      if (end > at)
        id.scopes.push_back(s.substr(at, end - at));
      at = end + 1;
    }
  } else if (auto scp = claims.find("scp"); scp != claims.end() && scp->is_array()) {
    for (auto& s : *scp)
      if (s.is_string())
        id.scopes.push_back(s.get<std::string>());
  }
  if (auto exp = number(claims, "exp"); exp && *exp > 0 && *exp < 1e11)
    id.expires_at = system_clock::time_point(
      std::chrono::duration_cast<system_clock::duration>(std::chrono::duration<double>(*exp)));
  id.claims = claims;
  return id;
}

} // namespace cafmcp::auth::detail

#include "cluster/cluster_url.hpp"

#include <charconv>
#include <stdexcept>

#include "foundation/percent_encoding.hpp"

namespace cafmcp::cluster {
namespace {

template <class T>
T number_or_throw(std::string_view digits, std::string_view url, const char* what) {
  T v{};
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    throw std::invalid_argument("cluster URL " + redacted(url) + ": bad " + what);
  return v;
}

std::string decoded_or_throw(std::string_view part, std::string_view url, const char* what) {
  auto d = detail::percent_decode(part);
  if (!d)
    throw std::invalid_argument("cluster URL " + redacted(url) + ": bad percent-encoding in the " + what);
  return *d;
}

} // namespace

log_address parse_log_url(std::string_view url) {
  constexpr std::string_view redis = "redis://";
  constexpr std::string_view memory = "memory://";
  if (url.starts_with(memory)) {
    auto name = url.substr(memory.size());
    if (name.empty())
      throw std::invalid_argument("cluster URL " + redacted(url) + ": a memory log needs a name");
    return memory_address{std::string(name)};
  }
  if (!url.starts_with(redis))
    throw std::invalid_argument("cluster URL " + redacted(url)
                                + ": expected redis://host[:port][/db] or memory://name");
  auto rest = url.substr(redis.size());
  redis_address a;
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    auto db = rest.substr(slash + 1);
    if (!db.empty())
      a.db = number_or_throw<unsigned>(db, url, "database number");
    rest = rest.substr(0, slash);
  }
  if (auto at = rest.rfind('@'); at != std::string_view::npos) {
    auto userinfo = rest.substr(0, at);
    rest = rest.substr(at + 1);
    auto colon = userinfo.find(':');
    if (colon == std::string_view::npos) // a user with no password: AUTH needs one
      throw std::invalid_argument("cluster URL " + redacted(url) + ": credentials are [user]:password");
    a.user = decoded_or_throw(userinfo.substr(0, colon), url, "user");
    a.password = decoded_or_throw(userinfo.substr(colon + 1), url, "password");
  }
  std::string_view host = rest;
  if (rest.starts_with('[')) { // [::1]:6379
    auto close = rest.find(']');
    if (close == std::string_view::npos)
      throw std::invalid_argument("cluster URL " + redacted(url) + ": unclosed [");
    host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    if (!rest.empty() && rest.front() != ':')
      throw std::invalid_argument("cluster URL " + redacted(url) + ": bad host");
    if (!rest.empty())
      a.port = number_or_throw<std::uint16_t>(rest.substr(1), url, "port");
  } else if (auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    host = rest.substr(0, colon);
    a.port = number_or_throw<std::uint16_t>(rest.substr(colon + 1), url, "port");
  }
  if (host.empty())
    throw std::invalid_argument("cluster URL " + redacted(url) + ": no host");
  if (a.port == 0)
    throw std::invalid_argument("cluster URL " + redacted(url) + ": port 0");
  a.host = std::string(host);
  return a;
}

std::string redacted(std::string_view url) {
  constexpr std::string_view redis = "redis://";
  if (!url.starts_with(redis))
    return std::string(url);
  auto rest = url.substr(redis.size());
  auto at = rest.substr(0, rest.find('/')).rfind('@');
  if (at == std::string_view::npos)
    return std::string(url);
  auto userinfo = rest.substr(0, at);
  auto colon = userinfo.find(':');
  auto user = colon == std::string_view::npos ? std::string_view() : userinfo.substr(0, colon);
  return std::string(redis) + std::string(user) + ":***@" + std::string(rest.substr(at + 1));
}

} // namespace cafmcp::cluster

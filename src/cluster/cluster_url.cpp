#include "cluster/cluster_url.hpp"

#include <charconv>
#include <stdexcept>

namespace cafmcp::cluster {
namespace {

template <class T>
T number_or_throw(std::string_view digits, std::string_view url, const char* what) {
  T v{};
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    throw std::invalid_argument("cluster URL " + std::string(url) + ": bad " + what);
  return v;
}

} // namespace

log_address parse_log_url(std::string_view url) {
  constexpr std::string_view redis = "redis://";
  constexpr std::string_view memory = "memory://";
  if (url.starts_with(memory)) {
    auto name = url.substr(memory.size());
    if (name.empty())
      throw std::invalid_argument("cluster URL " + std::string(url) + ": a memory log needs a name");
    return memory_address{std::string(name)};
  }
  if (!url.starts_with(redis))
    throw std::invalid_argument("cluster URL " + std::string(url)
                                + ": expected redis://host[:port][/db] or memory://name");
  auto rest = url.substr(redis.size());
  redis_address a;
  if (auto slash = rest.find('/'); slash != std::string_view::npos) {
    auto db = rest.substr(slash + 1);
    if (!db.empty())
      a.db = number_or_throw<unsigned>(db, url, "database number");
    rest = rest.substr(0, slash);
  }
  if (rest.find('@') != std::string_view::npos)
    throw std::invalid_argument("cluster URL " + std::string(url) + ": credentials are not supported");
  std::string_view host = rest;
  if (rest.starts_with('[')) { // [::1]:6379
    auto close = rest.find(']');
    if (close == std::string_view::npos)
      throw std::invalid_argument("cluster URL " + std::string(url) + ": unclosed [");
    host = rest.substr(1, close - 1);
    rest = rest.substr(close + 1);
    if (!rest.empty() && rest.front() != ':')
      throw std::invalid_argument("cluster URL " + std::string(url) + ": bad host");
    if (!rest.empty())
      a.port = number_or_throw<std::uint16_t>(rest.substr(1), url, "port");
  } else if (auto colon = rest.rfind(':'); colon != std::string_view::npos) {
    host = rest.substr(0, colon);
    a.port = number_or_throw<std::uint16_t>(rest.substr(colon + 1), url, "port");
  }
  if (host.empty())
    throw std::invalid_argument("cluster URL " + std::string(url) + ": no host");
  if (a.port == 0)
    throw std::invalid_argument("cluster URL " + std::string(url) + ": port 0");
  a.host = std::string(host);
  return a;
}

} // namespace cafmcp::cluster

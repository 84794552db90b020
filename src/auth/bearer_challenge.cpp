// RFC 7235 / RFC 6750: `Bearer k="v", k2=v2`. Quoted values may escape
// with a backslash; unknown parameters are skipped.
#include "cafmcp/client_auth.hpp"

#include "foundation/ascii_case.hpp"

namespace cafmcp {
namespace {

void skip_space(std::string_view& s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == ','))
    s.remove_prefix(1);
}

} // namespace

auth_challenge parse_bearer_challenge(std::string_view h) {
  auth_challenge c;
  skip_space(h);
  auto scheme_end = h.find(' ');
  if (!ascii_iequals(h.substr(0, scheme_end == std::string_view::npos ? h.size() : scheme_end), "Bearer"))
    return c;
  h.remove_prefix(scheme_end == std::string_view::npos ? h.size() : scheme_end);
  while (true) {
    skip_space(h);
    auto eq = h.find('=');
    if (h.empty() || eq == std::string_view::npos)
      return c;
    auto key = h.substr(0, eq);
    while (!key.empty() && key.back() == ' ')
      key.remove_suffix(1);
    h.remove_prefix(eq + 1);
    while (!h.empty() && h.front() == ' ')
      h.remove_prefix(1);
    std::string value;
    if (!h.empty() && h.front() == '"') {
      h.remove_prefix(1);
      while (!h.empty() && h.front() != '"') {
        if (h.front() == '\\' && h.size() > 1)
          h.remove_prefix(1);
        value += h.front();
        h.remove_prefix(1);
      }
      if (!h.empty())
        h.remove_prefix(1); // the closing quote
    } else {
      auto end = h.find_first_of(", ");
      value = std::string(h.substr(0, end));
      h.remove_prefix(end == std::string_view::npos ? h.size() : end);
    }
    if (ascii_iequals(key, "error"))
      c.error = value;
    else if (ascii_iequals(key, "scope"))
      c.scope = value;
    else if (ascii_iequals(key, "resource_metadata"))
      c.resource_metadata = value;
  }
}

} // namespace cafmcp

#include "cafmcp/otel/trace_state.hpp"

#include <algorithm>

#include "key_values.hpp"

namespace cafmcp::otel {
namespace {

bool lcalpha(char c) { return c >= 'a' && c <= 'z'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool key_char(char c) { return lcalpha(c) || digit(c) || c == '_' || c == '-' || c == '*' || c == '/'; }
bool nblk_char(char c) { return c >= 0x21 && c <= 0x7e && c != ',' && c != '='; }

} // namespace

bool trace_state::valid_key(std::string_view key) {
  auto at = key.find('@');
  if (at == std::string_view::npos) // simple-key: lcalpha 0*255(key_char)
    return !key.empty() && key.size() <= 256 && lcalpha(key[0])
           && std::all_of(key.begin(), key.end(), key_char);
  // multi-tenant-key: tenant-id "@" system-id
  auto tenant = key.substr(0, at), system = key.substr(at + 1);
  return !tenant.empty() && tenant.size() <= 241 && (lcalpha(tenant[0]) || digit(tenant[0]))
         && std::all_of(tenant.begin(), tenant.end(), key_char) && !system.empty() && system.size() <= 14
         && lcalpha(system[0]) && std::all_of(system.begin(), system.end(), key_char);
}

bool trace_state::valid_value(std::string_view value) {
  // 0*255(chr) nblk-chr, where chr also admits a space.
  return !value.empty() && value.size() <= 256 && nblk_char(value.back())
         && std::all_of(value.begin(), value.end(), [](char c) { return c == ' ' || nblk_char(c); });
}

std::optional<trace_state> trace_state::parse(std::string_view header) {
  trace_state out;
  std::size_t pos = 0;
  for (;;) {
    auto comma = header.find(',', pos);
    auto member = detail::trim_ows(
      header.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
    if (!member.empty()) {
      auto eq = member.find('=');
      if (eq == std::string_view::npos)
        return std::nullopt;
      auto key = member.substr(0, eq), value = member.substr(eq + 1);
      if (!valid_key(key) || !valid_value(value) || out.get(key) || out.members_.size() == max_members)
        return std::nullopt;
      out.members_.emplace_back(key, value);
    }
    if (comma == std::string_view::npos)
      return out;
    pos = comma + 1;
  }
}

std::optional<std::string_view> trace_state::get(std::string_view key) const {
  for (auto& [k, v] : members_)
    if (k == key)
      return std::string_view(v);
  return std::nullopt;
}

bool trace_state::set(std::string_view key, std::string_view value) {
  if (!valid_key(key) || !valid_value(value))
    return false;
  erase(key);
  if (members_.size() == max_members)
    members_.pop_back();
  members_.emplace(members_.begin(), key, value);
  return true;
}

bool trace_state::erase(std::string_view key) {
  auto it = std::find_if(members_.begin(), members_.end(), [&](auto& m) { return m.first == key; });
  if (it == members_.end())
    return false;
  members_.erase(it);
  return true;
}

std::string trace_state::to_header() const {
  std::string out;
  for (auto& [k, v] : members_) {
    if (!out.empty())
      out.push_back(',');
    out.append(k).push_back('=');
    out.append(v);
  }
  return out;
}

} // namespace cafmcp::otel

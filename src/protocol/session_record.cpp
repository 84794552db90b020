#include "protocol/session_record.hpp"

#include "foundation/json_member.hpp"

namespace cafmcp::protocol {

json to_json(const session_record& r) {
  json j{{"protocolVersion", r.protocol_version},
         {"capabilities", r.client_capabilities},
         {"logLevel", r.log_level},
         {"subscriptions", r.subscriptions}};
  if (!r.owner.empty())
    j["owner"] = r.owner;
  return j;
}

std::optional<session_record> session_record_from(const json& j) {
  if (!j.is_object())
    return std::nullopt;
  session_record r;
  r.protocol_version = member_or<std::string>(j, "protocolVersion", "");
  if (r.protocol_version.empty())
    return std::nullopt;
  if (auto it = j.find("capabilities"); it != j.end() && it->is_object())
    r.client_capabilities = *it;
  r.log_level = member_or<int>(j, "logLevel", 0);
  r.owner = member_or<std::string>(j, "owner", "");
  if (auto it = j.find("subscriptions"); it != j.end() && it->is_array())
    for (auto& u : *it)
      if (u.is_string())
        r.subscriptions.push_back(u.get<std::string>());
  return r;
}

} // namespace cafmcp::protocol

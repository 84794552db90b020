#include "protocol/operation_metrics.hpp"

#include <array>

#include "foundation/json_member.hpp"

namespace cafmcp::protocol {

std::string_view metric_method_name(std::string_view method) {
  static constexpr std::array<std::string_view, 15> known = {"initialize",
                                                             "ping",
                                                             "tools/list",
                                                             "tools/call",
                                                             "resources/list",
                                                             "resources/read",
                                                             "resources/templates/list",
                                                             "resources/subscribe",
                                                             "resources/unsubscribe",
                                                             "prompts/list",
                                                             "prompts/get",
                                                             "completion/complete",
                                                             "logging/setLevel",
                                                             "server/discover",
                                                             "subscriptions/listen"};
  for (auto m : known)
    if (m == method)
      return m;
  return "_OTHER";
}

std::string error_type_of(const outcome& result) {
  if (auto* err = std::get_if<jsonrpc::error>(&result))
    return std::to_string(err->code);
  if (member_or(std::get<json>(result), "isError", false))
    return "tool_error";
  return {};
}

} // namespace cafmcp::protocol

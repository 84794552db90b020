#pragma once
// `subscriptions/listen` (2026-07-28) as pure functions: the client's
// notification filter, the acknowledgement that opens the stream, and the
// splice that stamps each listener's subscription id into a notification
// serialized once for all of them.
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "cafmcp/json.hpp"
#include "cafmcp/json_rpc.hpp"

#include "protocol/change.hpp"

namespace cafmcp::protocol {

/// What one listen stream asked for (and, once honoured, will receive).
struct listen_filter {
  bool tools = false;            // notifications/tools/list_changed
  bool prompts = false;          // notifications/prompts/list_changed
  bool resources = false;        // notifications/resources/list_changed
  std::vector<std::string> uris; // notifications/resources/updated for these
  // notifications/tasks for these (the io.modelcontextprotocol/tasks
  // extension); honoured only for a client that declares it.
  std::vector<std::string> task_ids;

  bool wants(item_kind k) const;
};

/// Reads `params.notifications`: -32602 when it is malformed or names more
/// than `max_uris` resource URIs (or task ids).
std::variant<listen_filter, jsonrpc::error> read_listen_filter(const json& params, std::size_t max_uris);

/// `notifications/subscriptions/acknowledged` for subscription `id`, listing
/// what the server will honour.
json listen_acknowledgement(const listen_filter& honoured, const json& id);

/// The result that ends subscription `id` gracefully (the server shuts
/// down, or the client's input ended): a client tells it from a stream
/// that merely broke, which carries no response.
json listen_completion(const json& id);

/// `notifications/tasks` for a task as tasks/get shows it now (the
/// DetailedTask, without the result's `resultType`).
json task_notification(json detailed_task);

/// A notification serialized once, with the place where a listener's
/// subscription id goes: every listener's bytes are prefix + id + suffix.
struct spliced_notification {
  std::string prefix;
  std::string suffix;
  std::string with(std::string_view id_json) const;
};

/// Serializes `notification` once with `_meta["io.modelcontextprotocol/
/// subscriptionId"]` left open for splicing.
spliced_notification splice_subscription_id(json notification);

} // namespace cafmcp::protocol

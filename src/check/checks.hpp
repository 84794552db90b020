#pragma once
// The checks, grouped by what they rest on. Each records one or more
// results in the context's report; none throws (a failure to drive the
// server becomes a FAIL or SKIP with its reason).
#include "check/context.hpp"

namespace cafmcp::check {

/// Spec sections (MCP 2025-11-25) the checks cite.
namespace spec {
inline constexpr const char* capabilities = "2025-11-25 basic/lifecycle#capability-negotiation";
inline constexpr const char* initialized =
  "2025-11-25 basic/lifecycle#initialization (operation starts after notifications/initialized)";
inline constexpr const char* notifications = "2025-11-25 basic#notifications (schema.ts JSONRPCNotification)";
inline constexpr const char* tools_list_changed = "2025-11-25 server/tools#list-changed-notification";
inline constexpr const char* prompts_list_changed = "2025-11-25 server/prompts#list-changed-notification";
inline constexpr const char* resources_list_changed = "2025-11-25 server/resources#list-changed-notification";
inline constexpr const char* subscriptions = "2025-11-25 server/resources#subscriptions";
inline constexpr const char* resource_errors =
  "2025-11-25 server/resources#error-handling (-32002 resource not found)";
inline constexpr const char* sessions =
  "2025-11-25 basic/transports#session-management, #multiple-connections";
inline constexpr const char* resumability = "2025-11-25 basic/transports#resumability-and-redelivery";
inline constexpr const char* discover = "2026-07-28 server/index (server/discover), basic/versioning";
inline constexpr const char* listen =
  "2026-07-28 server/index (subscriptions/listen, notifications/subscriptions/acknowledged)";
inline constexpr const char* stateless_errors =
  "2026-07-28 changelog (SEP-2164: resource not found is -32602)";
inline constexpr const char* authorization =
  "2025-11-25 basic/authorization (RFC 9728 protected resource metadata, RFC 6750 challenges)";
inline constexpr const char* tasks = "2025-11-25 basic/utilities/tasks (experimental, SEP-1686)";
inline constexpr const char* cafmcp_metadata =
  "cafmcp extension (not MCP): list_changed params.operation / _meta[\"io.cafmcp/change\"]";
} // namespace spec

/// Connects the primary session and records capabilities.declared; false
/// when no session could be made (nothing else can run).
bool connect_primary(context& ctx);
void check_nothing_before_initialized(context& ctx);
void check_list_changed(context& ctx);
void check_subscriptions(context& ctx);
void check_session_isolation(context& ctx);
void check_resumption(context& ctx);
/// 2026-07-28: discover, the stateless error rule, subscriptions/listen.
void check_stateless(context& ctx);
/// Over everything every session received: run these last.
void check_notification_shape(context& ctx);
/// HTTP only: the authorization surface (metadata document, 401 challenge).
void check_authorization(context& ctx);
void check_operation_metadata(context& ctx);
/// The tasks surface, when the server declares tasks for tools/call.
void check_tasks(context& ctx);

/// Every check, in order, against the server `opts` names.
report run_checks(const options& opts);

} // namespace cafmcp::check

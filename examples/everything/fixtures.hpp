#pragma once
// The everything-server's fixtures: what the official conformance suite's
// server scenarios expect, and the mutation tools cafmcp's notification
// tests drive.
#include <cafmcp/server.hpp>

namespace everything {

/// A tool in one expression (the fixtures are many and small).
inline cafmcp::tool make_tool(std::string name, std::string description, cafmcp::json schema,
                              cafmcp::tool_handler handler) {
  cafmcp::tool t;
  t.name = std::move(name);
  t.description = std::move(description);
  t.input_schema = std::move(schema);
  t.handler = std::move(handler);
  return t;
}

/// The same, for a handler that returns at once and never blocks: it runs
/// on its session's actor (tool::quick).
inline cafmcp::tool quick_tool(std::string name, std::string description, cafmcp::json schema,
                               cafmcp::tool_handler handler) {
  auto t = make_tool(std::move(name), std::move(description), std::move(schema), std::move(handler));
  t.quick = true;
  return t;
}

void install_conformance_fixtures(cafmcp::server& srv);
/// The 2026-07-28 fixtures (input_required, listen triggers, probes).
void install_stateless_fixtures(cafmcp::server& srv);
void install_mutation_tools(cafmcp::server& srv);
/// Tasks: greet, slow_compute, failing_job, protocol_error_job,
/// confirm_delete, multi_input, test_tool_with_task.
void install_task_fixtures(cafmcp::server& srv);
/// With --auth-issuer: `whoami` (the verified caller) and `admin_report`
/// (scope mcp:admin).
void install_auth_fixtures(cafmcp::server& srv);
/// `server_stats`: the notifier's sessions and subscriptions, for tests
/// that check a departed client left nothing behind; `slow_call`: a call
/// still running when a shutdown begins.
void install_diagnostics(cafmcp::server& srv);

} // namespace everything

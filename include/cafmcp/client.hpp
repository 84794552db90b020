#pragma once
// An MCP client over any client_transport (a spawned stdio server,
// Streamable HTTP, a server in the same process). Every method returns a
// future and is safe from any thread, including from event handlers and
// server->client request handlers. The client keeps the server's descriptor
// lists up to date by itself (list_changed: reload, coalesced, retried with
// backoff; cafmcp's operation metadata: patched without a reload) and caches
// what it fetched (content_cache).
//
//   cafmcp::client c(cafmcp::make_stdio_client_transport({.argv = {"./server", "--stdio"}}));
//   c.connect().get();
//   auto tools = c.list_tools().get();
//   auto read = c.read_resource("file:///notes.txt").get();   // also in c.cache()
//   auto sub = c.on(cafmcp::client_event_kind::resource_updated, [](auto& e) { ... });
//   c.subscribe("file:///notes.txt").get();
#include <chrono>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cafmcp/client_events.hpp"
#include "cafmcp/client_options.hpp"
#include "cafmcp/client_transport.hpp"
#include "cafmcp/content_cache.hpp"
#include "cafmcp/invocation.hpp"

namespace cafmcp {

/// What a future holds when a request failed: the server's JSON-RPC error,
/// a timeout, a closed connection, or a refusal by the client itself (e.g.
/// subscribe to a server without the capability).
struct client_error : std::runtime_error {
  explicit client_error(rpc_failure f);
  rpc_failure failure;
};

/// Codes for failures the client reports itself (JSON-RPC's server-error
/// range is the server's; these are negative and outside it).
namespace client_error_code {
inline constexpr int timeout = -32001;
inline constexpr int connection_closed = -32000;
inline constexpr int not_supported = -31000; // the server lacks the capability
inline constexpr int too_many_pending = -31001;
} // namespace client_error_code

struct call_options {
  /// Called with each `notifications/progress` params for this request
  /// (a progress token is sent when set).
  std::function<void(const json& params)> on_progress;
  /// This call's own limit instead of client_options::request_timeout (a
  /// long-running tool, or a short one that must not hold its caller).
  std::optional<std::chrono::milliseconds> timeout;
};

/// A task the server runs for a tools/call (2025-11-25 tasks): its status
/// as tasks/get, tasks/cancel or tasks/list last told it.
struct task_info {
  std::string id;
  std::string status; // working, input_required, completed, failed, cancelled
  std::string status_message;
  std::optional<std::chrono::milliseconds> poll_interval; // the server's suggestion
  json task;                                              // the Task object as received
  bool terminal() const;
};

class client {
public:
  explicit client(std::unique_ptr<client_transport> transport, client_options opts = {});
  ~client(); // closes the connection
  client(const client&) = delete;
  client& operator=(const client&) = delete;

  /// initialize, then notifications/initialized, then the lists the server
  /// declares are loaded once. The future holds the initialize result.
  std::future<json> connect();
  /// Ends the connection; every pending request fails, subscriptions clear.
  void close();

  /// What initialize answered (copies: a reconnect may change them).
  json server_capabilities() const;
  json server_info() const;
  std::string protocol_version() const;

  // -- lists (cursors followed; the client's own copy is updated too) --------
  std::future<std::vector<json>> list_tools();
  std::future<std::vector<json>> list_resources();
  std::future<std::vector<json>> list_resource_templates();
  std::future<std::vector<json>> list_prompts();
  /// The client's current copy of each list (no round trip).
  std::vector<json> tools() const;
  std::vector<json> resources() const;
  std::vector<json> resource_templates() const;
  std::vector<json> prompts() const;

  // -- fetches: returned and cached ------------------------------------------
  std::future<std::shared_ptr<const resource_read>> read_resource(std::string uri);
  /// Expands `uri_template` (RFC 6570) with `params`, reads the result.
  std::future<std::shared_ptr<const template_read>> read_resource_template(std::string uri_template,
                                                                           json params);
  std::future<std::shared_ptr<const prompt_get>> get_prompt(std::string name,
                                                            json arguments = json::object());
  std::future<std::shared_ptr<const tool_call>> call_tool(std::string name, json arguments = json::object(),
                                                          call_options opts = {});

  // -- the rest --------------------------------------------------------------
  std::future<void> subscribe(std::string uri);
  std::future<void> unsubscribe(std::string uri);
  std::vector<std::string> subscriptions() const;
  std::future<void> ping();
  std::future<void> set_log_level(std::string level);
  /// completion/complete for a prompt argument ({"type":"ref/prompt","name":...})
  /// or template variable ({"type":"ref/resource","uri":...}).
  std::future<json> complete(json ref, std::string argument, std::string value, json context = nullptr);
  // -- tasks (2025-11-25): calls that outlive the request and the connection --
  /// tools/call as a task (the tool's execution.taskSupport must allow it):
  /// the task as created. `ttl`: how long the server should keep it.
  /// Input the task needs meanwhile reaches client_options::on_elicitation
  /// and on_sampling like any request's; its status changes arrive as
  /// client_event_kind::task_status events.
  std::future<task_info> start_tool_task(std::string name, json arguments = json::object(),
                                         std::optional<std::chrono::milliseconds> ttl = std::nullopt);
  /// Works from any connection: the task id is what identifies it.
  std::future<task_info> get_task(std::string id);
  /// Waits (server-side, at most `wait`) for the task to end: its
  /// CallToolResult, or the error it failed with.
  std::future<json> task_result(std::string id, std::chrono::milliseconds wait = std::chrono::minutes(10));
  std::future<task_info> cancel_task(std::string id);
  /// This client's tasks (its session's, or its token subject's).
  std::future<std::vector<task_info>> list_tasks();

  /// Any request (for methods this API does not wrap); the result object.
  std::future<json> request(std::string method, json params = json::object());

  content_cache& cache();
  /// Registers `h` for events of `kind` until the returned handle goes.
  event_subscription on(client_event_kind kind, client_event_handler h);

  /// List reloads started because of list_changed (for tests and metrics).
  std::size_t reloads_started() const;

  struct impl;

private:
  std::shared_ptr<impl> impl_;
};

} // namespace cafmcp

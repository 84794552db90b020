#pragma once
// Tools as a server author registers them.
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cafmcp/json.hpp"
#include "cafmcp/request_context.hpp"

namespace cafmcp {

/// A `CallToolResult`. Build with the helpers; `is_error` results are how a
/// tool reports failure to the model (input-validation failures, thrown
/// exceptions and business errors all become one, per SEP-1303).
struct tool_result {
  json content = json::array(); // ContentBlock[]
  std::optional<json> structured_content;
  bool is_error = false;
  json meta; // `_meta`; omitted when null

  static tool_result text(std::string text);
  static tool_result error(std::string text);
  /// Structured output plus its serialized form as a text block, as the
  /// spec recommends for clients without structured-output support.
  static tool_result structured(json value);
  tool_result& add(json content_block);
  json to_json() const&;
  json to_json() &&; // moves the content out
};

/// Content-block helpers (schema.ts ContentBlock).
namespace content {
json text(std::string text);
json image(std::string base64, std::string mime_type);
json audio(std::string base64, std::string mime_type);
json embedded_text(std::string uri, std::string text, std::string mime_type);
json embedded_blob(std::string uri, std::string base64, std::string mime_type);
json resource_link(std::string uri, std::string name, std::optional<std::string> mime = {});
} // namespace content

using tool_handler = std::function<tool_result(const json& arguments, request_context&)>;

/// The answer to one call of an asynchronous tool (tool::async_handler):
/// call it once, from any thread, when the result is ready; later calls
/// are ignored. Copies share the one answer. If every copy is dropped
/// without a call, the request is answered with an error saying so: a
/// client is never left waiting.
class tool_reply {
public:
  /// Internal: the server makes one per call.
  explicit tool_reply(std::function<void(tool_result)> deliver);
  void operator()(tool_result result) const;

private:
  struct once;
  std::shared_ptr<once> once_;
};

/// A handler that starts the work and returns at once; `reply` answers
/// later (from a mutation's callback, an I/O completion, another actor).
using async_tool_handler = std::function<void(const json& arguments, request_context&, tool_reply reply)>;

/// Whether a call of the tool may run as a task, work that outlives the
/// request and its connection (2025-11-25 `execution.taskSupport`; the
/// 2026-07-28 `io.modelcontextprotocol/tasks` extension).
enum class task_support {
  forbidden, ///< always answered in the request (the default)
  optional,  ///< a task for a client that asks (2025-11-25) or speaks the extension (2026-07-28)
  required,  ///< only as a task: other clients are refused (-32601 / -32021)
};

struct tool {
  std::string name; // 1-128 of [A-Za-z0-9_.-] (SEP-986); checked on add
  std::optional<std::string> title;
  std::optional<std::string> description;
  /// JSON Schema (2020-12 unless `$schema` says otherwise), root type object.
  /// Arguments are validated against it before the handler runs.
  json input_schema = json{{"type", "object"}};
  /// When set, results must carry `structuredContent` matching it; a result
  /// that does not becomes an `isError` result naming the mismatch.
  std::optional<json> output_schema;
  json annotations; // ToolAnnotations; omitted when null
  json icons;
  json meta;
  tool_handler handler;
  /// Instead of `handler`: the tool answers through a tool_reply when its
  /// work is done, and no thread waits meanwhile. It runs as a quick
  /// handler does (on its session's actor: it must not block, and its
  /// request() to the client throws), so a call that only sends messages
  /// (a mutation with a callback, say) never leaves the actor system:
  /// stdio, one update_resource at a time, 1.6-1.9x the calls per second
  /// of the blocking form (BENCHMARKS.md). Not for tasks (`tasks` must stay
  /// forbidden: a task's handler is run again with input, on a thread).
  /// The server's shutdown waits for a reply still held, as it waits for a
  /// handler still running: answer it, or let it go.
  async_tool_handler async_handler;
  /// The handler returns at once and never blocks (no I/O, no waiting, no
  /// request_context::request): it then runs on its session's actor instead
  /// of a thread of its own, two thread hand-offs fewer per call (tools/call
  /// over HTTP, 16 clients: +30% requests/s, p50 -25%). Over HTTP that actor
  /// runs on the event loop that read the call (http_options::
  /// actors_on_event_loops), over stdio on the thread reading stdin (stdio_options::actors_on_reader):
  /// a quick handler that blocks holds up its session and that loop's connections or stdin (with the
  /// option off, one of the actor system's threads); its request() to the client throws
  /// client_request_error at once.
  bool quick = false;
  /// Over HTTP with a token verifier: the scopes a caller's token must
  /// carry to see this in lists and to use it (403 insufficient_scope
  /// otherwise). Empty: every authenticated caller.
  std::vector<std::string> scopes;
  /// Tasks (README "Tasks"): the server creates the task and answers the
  /// call with it before the handler runs, then keeps the handler's result
  /// for tasks/get (and tasks/result) from any connection. A task's
  /// handler is never quick.
  task_support tasks = task_support::forbidden;
  /// With tasks: the handler, not the server, decides when the call becomes
  /// a task, by calling request_context::continue_as_task() (e.g. once it has
  /// gathered the client's input in the request itself); until then, and if
  /// it never does, the call is answered as any other.
  bool handler_starts_task = false;

  json descriptor() const;
};

} // namespace cafmcp

#pragma once
// What a client fetch did: the request's parameters, the server's whole
// result (or error), and when. A fetch method returns one and the content
// cache keeps the very same object, so what `client.read_resource(uri)`
// returned is what `client.cache().resource(uri)` gives later.
#include <chrono>
#include <optional>
#include <string>

#include "cafmcp/json.hpp"

namespace cafmcp {

/// A JSON-RPC error the server answered with (or one the client made up for
/// a request that could not be answered: timeout, connection closed).
struct rpc_failure {
  int code = 0;
  std::string message;
  json data;
};

struct invocation {
  using clock = std::chrono::system_clock;
  clock::time_point started;
  clock::time_point finished;
  /// The server's `result` object; null when `error` is set.
  json result;
  std::optional<rpc_failure> error;
  bool ok() const { return !error; }
};

struct resource_read : invocation {
  std::string uri;
};

/// A read of a resource through its template: cached by `uri_template`.
struct template_read : invocation {
  std::string uri_template;
  std::string expanded_uri;
  json params; // the variables the template was expanded with
};

struct prompt_get : invocation {
  std::string name;
  json arguments;
};

struct tool_call : invocation {
  std::string name;
  json arguments;
  /// The call worked and the tool did not report an error (`isError`).
  bool success() const { return ok() && !result.value("isError", false); }
};

} // namespace cafmcp

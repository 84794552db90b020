#pragma once
// What the load needs from an MCP client session, whatever carries it:
// requests with their results. (Streamable HTTP: mcp_session; stdio:
// stdio_session.)
#include <string>

#include <boost/asio/awaitable.hpp>
#include <nlohmann/json.hpp>

namespace cafmcp::load {

template <class T>
using task = boost::asio::awaitable<T>;

class rpc_session {
public:
  virtual ~rpc_session() = default;
  /// A request; returns its JSON-RPC result (throws on an error reply).
  /// (Coroutines take their arguments by value: a reference would dangle.)
  virtual task<nlohmann::json> call(std::string method, nlohmann::json params) = 0;
  /// tools/call; returns the result (isError included).
  task<nlohmann::json> call_tool(const std::string& name, nlohmann::json args) {
    return call("tools/call", {{"name", name}, {"arguments", std::move(args)}});
  }
  virtual void close() = 0;
};

} // namespace cafmcp::load

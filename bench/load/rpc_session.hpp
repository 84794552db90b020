#pragma once
// What the load needs from an MCP client session, whatever carries it:
// requests with their results. (Streamable HTTP: mcp_session; stdio:
// stdio_session.)
#include <cstdint>
#include <string>
#include <string_view>

#include <boost/asio/awaitable.hpp>
#include <nlohmann/json.hpp>

namespace cafmcp::load {

template <class T>
using task = boost::asio::awaitable<T>;

/// `s` as a JSON string: as it is between quotes when nothing in it needs
/// escaping (a method's or a tool's name), else as nlohmann writes it.
inline std::string json_string(std::string_view s) {
  for (unsigned char c : s)
    if (c < 0x20 || c == '"' || c == '\\' || c >= 0x7f)
      return nlohmann::json(s).dump();
  std::string out;
  out.reserve(s.size() + 2);
  out += '"';
  out += s;
  out += '"';
  return out;
}

/// A JSON-RPC request's text, written as text: building a json object for
/// it and dumping that cost the client ~10k instructions a request, its
/// largest item after reading the reply.
inline std::string request_text(std::int64_t id, std::string_view method, std::string_view params) {
  std::string out = R"({"jsonrpc":"2.0","id":)";
  out += std::to_string(id);
  out += R"(,"method":)";
  out += json_string(method);
  out += R"(,"params":)";
  out += params;
  out += '}';
  return out;
}

class rpc_session {
public:
  virtual ~rpc_session() = default;
  /// A request whose params are JSON text; returns its JSON-RPC result
  /// (throws on an error reply). (Coroutines take their arguments by
  /// value: a reference would dangle.)
  virtual task<nlohmann::json> call_text(std::string method, std::string params) = 0;
  task<nlohmann::json> call(std::string method, const nlohmann::json& params) {
    return call_text(std::move(method), params.dump());
  }
  /// tools/call; returns the result (isError included).
  task<nlohmann::json> call_tool(const std::string& name, const nlohmann::json& args) {
    return call_text("tools/call", tool_params(name, args.dump()));
  }
  /// tools/call with no arguments, answered with a result that is no
  /// error: all the request-rate run asks of a call. A session may check
  /// that without building the result (the load client must not be what
  /// a request-rate run measures); by default it is `call_tool`.
  virtual task<bool> tool_succeeds(std::string name) {
    auto result = co_await call_tool(name, nlohmann::json::object());
    co_return !result.value("isError", false);
  }
  virtual void close() = 0;

protected:
  static std::string tool_params(std::string_view name, std::string_view args) {
    return R"({"name":)" + json_string(name) + R"(,"arguments":)" + std::string(args) + "}";
  }
};

} // namespace cafmcp::load

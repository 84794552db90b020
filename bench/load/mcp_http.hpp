#pragma once
// The load generator's own Streamable HTTP client: Beast parses the HTTP
// framing (Content-Length, chunked, until-EOF); requests are written as
// prebuilt text and SSE events are split by hand, so the client spends next
// to nothing per delivered notification. It knows just enough MCP to open a
// session; cafmcp's real client library is not used on purpose (a load
// generator must stay cheaper than the servers it drives).
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include "rpc_session.hpp"
#include "reply_reader.hpp"
#include "sse_poller.hpp"

namespace cafmcp::load {

namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;

struct endpoint {
  std::string host;
  std::string port;
  std::string path;
  tcp::endpoint resolved;
  std::string extra_headers; // whole lines ("Authorization: Bearer ...\r\n"), on every request
  static endpoint parse(const std::string& url); // http://HOST:PORT/PATH
};

/// One keep-alive connection carrying JSON-RPC POSTs for one MCP session.
class mcp_session : public rpc_session {
public:
  explicit mcp_session(net::any_io_executor ex, const endpoint& ep) : sock_(ex), ep_(ep) {}

  task<void> connect();
  /// initialize + notifications/initialized; remembers the session id.
  task<void> open(std::string client_name);
  task<nlohmann::json> call_text(std::string method, std::string params) override;
  task<bool> tool_succeeds(std::string name) override;
  void close() override;

  const std::string& session_id() const { return session_id_; }
  const std::string& protocol() const { return protocol_; }

private:
  struct reply {
    bool event_stream = false; // an SSE response, else one JSON body
    std::string body;
  };
  /// POSTs `body`; the reply as it came (a notification's: none).
  task<reply> post(std::string body, bool notification);
  /// The JSON-RPC message answering `id` in a reply.
  static nlohmann::json message_of(const reply& r, std::int64_t id);
  task<nlohmann::json> exchange(std::string body, std::int64_t id);
  std::string head(std::size_t length) const;

  tcp::socket sock_;
  const endpoint& ep_;
  beast::flat_buffer buf_;
  std::string session_id_;
  std::string protocol_ = "2025-11-25";
  std::int64_t next_id_ = 1;
  reply_reader replies_;
};

/// A session's GET stream: calls `on_data` with each SSE event's data field.
class sse_stream {
public:
  sse_stream(net::any_io_executor ex, const endpoint& ep) : sock_(ex), ep_(ep) {}
  /// Connects and reads the response head (throws unless 200 event-stream).
  task<void> open(std::string session_id, std::string protocol);
  /// Reads events until the server ends the stream or close() is called.
  /// A body that runs until the connection closes (cafmcp's) is handed to
  /// `poller` when there is one; a chunked body (Node's) is read here.
  task<void> run(std::function<void(std::string_view data)> on_data, sse_poller* poller = nullptr);
  void close();

private:
  void split_events(std::function<void(std::string_view)>& on_data);

  tcp::socket sock_;
  sse_poller* poller_ = nullptr;
  int polled_fd_ = -1;
  std::function<void(std::string_view)> on_data_;
  const endpoint& ep_;
  beast::flat_buffer buf_;
  beast::http::response_parser<beast::http::buffer_body> parser_;
  std::string pending_;
};

} // namespace cafmcp::load

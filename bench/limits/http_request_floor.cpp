// Floor (c): the request path with nothing behind it. One thread, Asio,
// HTTP/1.1 keep-alive: each POST is read (the head up to its blank line,
// then Content-Length bytes), its JSON-RPC id is copied out of the body by
// a scan, and a fixed JSON-RPC result is written around it in one write. No
// JSON parse, no routing, no session, no actor, no handler: what answering
// a request costs on this machine when the server does no work of its own.
// cafmcp-load --mode requests drives it exactly as it drives the servers
// (initialize, notifications/initialized, then tools/call back to back), so
// the tools/call row reads cafmcp's req/s against it.
//
//   http-request-floor [--port N]   prints its URL on stderr, serves until killed
#include <string>
#include <string_view>

#include "limits/bare_http.hpp"

namespace {

namespace net = boost::asio;
using bare_http::task;
using net::ip::tcp;

// The same text everything-server's test_simple_text answers, so the bytes
// on the wire match the row it is read against.
constexpr std::string_view tool_result =
  R"({"content":[{"type":"text","text":"This is a simple text response for testing."}]})";
constexpr std::string_view init_result =
  R"({"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"http-request-floor","version":"1"}})";

void answer(std::string_view body, std::string& out) {
  auto id = bare_http::id_of(body);
  if (id.empty())
    return bare_http::append_accepted(out);
  bool init = body.find(R"("method":"initialize")") != std::string_view::npos;
  bare_http::append_result(out, id, init ? init_result : tool_result, init ? "Mcp-Session-Id: floor\r\n" : "");
}

task<void> serve(tcp::socket s) {
  co_await bare_http::serve_requests(s, [](const bare_http::request& r, std::string& out) {
    answer(r.body, out);
    return true;
  });
}

} // namespace

int main(int argc, char** argv) { return bare_http::run(argc, argv, "http-request-floor", serve); }

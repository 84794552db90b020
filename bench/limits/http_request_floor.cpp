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
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <boost/asio.hpp>

namespace {

namespace net = boost::asio;
using net::ip::tcp;
template <class T>
using task = net::awaitable<T>;

// The same text everything-server's test_simple_text answers, so the bytes
// on the wire match the row it is read against.
constexpr std::string_view tool_result =
  R"({"content":[{"type":"text","text":"This is a simple text response for testing."}]})";
constexpr std::string_view init_result =
  R"({"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"http-request-floor","version":"1"}})";

bool iequals_prefix(std::string_view text, std::string_view lower_prefix) {
  if (text.size() < lower_prefix.size())
    return false;
  for (std::size_t i = 0; i < lower_prefix.size(); ++i)
    if (static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))) != lower_prefix[i])
      return false;
  return true;
}

// Content-Length of the head `head` (lines ending in CRLF); 0 without one.
std::size_t content_length(std::string_view head) {
  for (std::size_t at = 0; at < head.size();) {
    auto end = head.find("\r\n", at);
    auto line = head.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at);
    if (iequals_prefix(line, "content-length:"))
      return std::strtoull(std::string(line.substr(15)).c_str(), nullptr, 10);
    if (end == std::string_view::npos)
      break;
    at = end + 2;
  }
  return 0;
}

// The id's JSON text (a number or a string), or empty for a notification.
std::string_view id_of(std::string_view body) {
  auto at = body.find("\"id\":");
  if (at == std::string_view::npos)
    return {};
  at += 5;
  auto end = body[at] == '"' ? body.find('"', at + 1) + 1 : body.find_first_of(",}", at);
  return body.substr(at, end - at);
}

void answer(std::string_view body, std::string& out) {
  auto id = id_of(body);
  if (id.empty()) {
    out += "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n";
    return;
  }
  bool init = body.find(R"("method":"initialize")") != std::string_view::npos;
  auto result = init ? init_result : tool_result;
  std::string json;
  json.reserve(64 + result.size());
  json.append(R"({"jsonrpc":"2.0","id":)").append(id).append(R"(,"result":)").append(result).append("}");
  out += "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n";
  if (init)
    out += "Mcp-Session-Id: floor\r\n";
  out += "Content-Length: " + std::to_string(json.size()) + "\r\n\r\n";
  out += json;
}

task<void> serve(tcp::socket s) {
  s.set_option(tcp::no_delay(true));
  std::string in, out;
  char chunk[16384];
  for (;;) {
    // Every whole request read so far is answered with one write.
    std::size_t used = 0;
    for (;;) {
      auto head_end = in.find("\r\n\r\n", used);
      if (head_end == std::string::npos)
        break;
      auto length = content_length(std::string_view(in).substr(used, head_end - used));
      if (in.size() < head_end + 4 + length)
        break;
      answer(std::string_view(in).substr(head_end + 4, length), out);
      used = head_end + 4 + length;
    }
    in.erase(0, used);
    if (!out.empty()) {
      auto [ec, n] = co_await net::async_write(s, net::buffer(out), net::as_tuple(net::use_awaitable));
      if (ec)
        co_return;
      out.clear();
    }
    auto [ec, n] = co_await s.async_read_some(net::buffer(chunk), net::as_tuple(net::use_awaitable));
    if (ec)
      co_return;
    in.append(chunk, n);
  }
}

task<void> listen(tcp::acceptor& a) {
  for (;;) {
    auto [ec, s] = co_await a.async_accept(net::as_tuple(net::use_awaitable));
    if (ec)
      co_return;
    net::co_spawn(a.get_executor(), serve(std::move(s)), net::detached);
  }
}

} // namespace

int main(int argc, char** argv) {
  unsigned short port = 0;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--port" && i + 1 < argc)
      port = static_cast<unsigned short>(std::atoi(argv[++i]));
  net::io_context io(1);
  tcp::acceptor a(io, tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  std::fprintf(stderr, "http-request-floor on http://127.0.0.1:%u/mcp\n", a.local_endpoint().port());
  net::co_spawn(io, listen(a), net::detached);
  io.run();
}

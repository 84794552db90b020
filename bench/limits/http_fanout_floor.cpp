// Floor (e): a fan-out over HTTP with nothing behind it, driven by the same
// load client as the servers. One thread, Asio, HTTP/1.1 keep-alive, the
// requests of floor (c) answered the same way (a scan for the id, a fixed
// result), and a GET with `Accept: text/event-stream` held open as an SSE
// stream. A tools/call of update_resource writes one prebuilt
// `notifications/resources/updated` event for the uri it names to every
// stream, one write(2) each, then answers. No session, no subscription,
// no JSON tree, no actor, no history: every stream gets every update (the
// load client subscribes every session to every uri).
//
// `cafmcp-load -k 500 -m 600` drives it exactly as it drives a server, so
// its rate is what one update at a time reaches on this machine with this
// client, the HTTP round trip of each mutation and the client's own
// reading included: the one-at-a-time row read against it says what the
// server's own work costs, where floor (b) (a writer and a reader in one
// process, no HTTP) says what the machine allows.
//
//   http-fanout-floor [--port N]   prints its URL on stderr, serves until killed
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <string_view>
#include <vector>

#include "limits/bare_http.hpp"

namespace {

namespace net = boost::asio;
using bare_http::task;
using net::ip::tcp;

constexpr std::string_view init_result =
  R"({"protocolVersion":"2025-11-25","capabilities":{"resources":{"subscribe":true,"listChanged":true},"tools":{}},"serverInfo":{"name":"http-fanout-floor","version":"1"}})";
constexpr std::string_view tool_result = R"({"content":[{"type":"text","text":"ok"}]})";
constexpr std::string_view stream_head =
  "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n\r\n";

std::vector<int> streams; // the open GET streams' sockets (one thread: no lock)
std::uint64_t events = 0;

// Whole, even if the socket is full: the floor waits for a slow reader
// rather than queueing (one update at a time never fills a socket).
void write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    auto n = ::write(fd, bytes.data(), bytes.size());
    if (n > 0) {
      bytes.remove_prefix(static_cast<std::size_t>(n));
    } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      pollfd p{fd, POLLOUT, 0};
      ::poll(&p, 1, -1);
    } else if (n < 0 && errno == EINTR) {
      continue;
    } else {
      return; // the client went away; its stream's reader removes it
    }
  }
}

std::string_view uri_of(std::string_view body) {
  static constexpr std::string_view key = R"("uri":")";
  auto at = body.find(key);
  if (at == std::string_view::npos)
    return {};
  at += key.size();
  return body.substr(at, body.find('"', at) - at);
}

void broadcast(std::string_view uri) {
  std::string event = "id: 0-" + std::to_string(++events) + "\ndata: ";
  event.append(R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":")")
    .append(uri)
    .append("\"}}\n\n");
  for (int fd : streams)
    write_all(fd, event);
}

// False: the request opened a stream (its head is in `out`).
bool answer(const bare_http::request& r, std::string& out) {
  if (r.head.starts_with("GET ")) {
    out += stream_head;
    return false;
  }
  if (r.head.starts_with("DELETE ")) {
    out += "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
    return true;
  }
  auto id = bare_http::id_of(r.body);
  if (id.empty()) {
    bare_http::append_accepted(out);
    return true;
  }
  if (r.body.find(R"("method":"initialize")") != std::string_view::npos) {
    bare_http::append_result(out, id, init_result, "Mcp-Session-Id: floor\r\n");
    return true;
  }
  if (r.body.find(R"("name":"update_resource")") != std::string_view::npos)
    broadcast(uri_of(r.body)); // before the answer, as a server settles a mutation after its broadcast
  bool tool = r.body.find(R"("method":"tools/call")") != std::string_view::npos;
  bare_http::append_result(out, id, tool ? tool_result : std::string_view("{}"));
  return true;
}

task<void> serve(tcp::socket s) {
  bool stream = false;
  co_await bare_http::serve_requests(s, [&](const bare_http::request& r, std::string& out) {
    return !(stream = !answer(r, out));
  });
  if (!stream)
    co_return;
  // Until the client closes it: the stream takes events, and nothing more
  // is read from it than its end.
  int fd = s.native_handle();
  streams.push_back(fd);
  char sink[512];
  for (;;) {
    auto [ec, n] = co_await s.async_read_some(net::buffer(sink), net::as_tuple(net::use_awaitable));
    if (ec)
      break;
  }
  streams.erase(std::find(streams.begin(), streams.end(), fd));
}

} // namespace

int main(int argc, char** argv) { return bare_http::run(argc, argv, "http-fanout-floor", serve); }

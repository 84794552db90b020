#pragma once
// What the bare HTTP floors (c) and (e) share: requests split out of the
// bytes read by scanning (the head up to its blank line, then
// Content-Length bytes), a JSON-RPC id copied out of a body, and a JSON-RPC
// result written around it. No parser, no JSON tree: the floors stand for
// a server that does no work of its own.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <boost/asio.hpp>

namespace bare_http {

namespace net = boost::asio;
using net::ip::tcp;
template <class T>
using task = net::awaitable<T>;

inline bool iequals_prefix(std::string_view text, std::string_view lower_prefix) {
  if (text.size() < lower_prefix.size())
    return false;
  for (std::size_t i = 0; i < lower_prefix.size(); ++i)
    if (static_cast<char>(std::tolower(static_cast<unsigned char>(text[i]))) != lower_prefix[i])
      return false;
  return true;
}

/// Content-Length of the head `head` (lines ending in CRLF); 0 without one.
inline std::size_t content_length(std::string_view head) {
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

struct request {
  std::string_view head; // request line and header lines, without the blank line
  std::string_view body;
};

/// Calls `on(request)` for every whole request at the front of `in` and
/// erases them; a partial one stays for the next read. `on` returning false
/// stops it there.
template <class F>
void take_requests(std::string& in, F&& on) {
  std::size_t used = 0;
  for (bool more = true; more;) {
    auto head_end = in.find("\r\n\r\n", used);
    if (head_end == std::string::npos)
      break;
    auto head = std::string_view(in).substr(used, head_end - used);
    auto length = content_length(head);
    if (in.size() < head_end + 4 + length)
      break;
    more = on(request{head, std::string_view(in).substr(head_end + 4, length)});
    used = head_end + 4 + length;
  }
  in.erase(0, used);
}

/// The id's JSON text (a number or a string), or empty for a notification.
inline std::string_view id_of(std::string_view body) {
  auto at = body.find("\"id\":");
  if (at == std::string_view::npos)
    return {};
  at += 5;
  auto end = body[at] == '"' ? body.find('"', at + 1) + 1 : body.find_first_of(",}", at);
  return body.substr(at, end - at);
}

/// A 200 answer carrying `{"jsonrpc":"2.0","id":<id>,"result":<result>}`
/// (`extra_headers`: whole lines), appended to `out`.
inline void append_result(std::string& out, std::string_view id, std::string_view result,
                          std::string_view extra_headers = {}) {
  std::string json;
  json.reserve(64 + result.size());
  json.append(R"({"jsonrpc":"2.0","id":)").append(id).append(R"(,"result":)").append(result).append("}");
  out += "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n";
  out += extra_headers;
  out += "Content-Length: " + std::to_string(json.size()) + "\r\n\r\n";
  out += json;
}

inline void append_accepted(std::string& out) { out += "HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n"; }

/// HTTP/1.1 keep-alive on `s`: every whole request read so far is
/// answered (`answer(request, out)` appends to `out`) and the answers go
/// out in one write. Returns when the client closes, or after writing the
/// answer for which `answer` returned false (the connection is no longer
/// one of requests: a stream).
template <class Answer>
task<void> serve_requests(tcp::socket& s, Answer answer) {
  s.set_option(tcp::no_delay(true));
  std::string in, out;
  char chunk[16384];
  for (bool more = true;;) {
    take_requests(in, [&](const request& r) { return more = answer(r, out); });
    if (!out.empty()) {
      auto [ec, n] = co_await net::async_write(s, net::buffer(out), net::as_tuple(net::use_awaitable));
      if (ec)
        co_return;
      out.clear();
    }
    if (!more)
      co_return;
    auto [ec, n] = co_await s.async_read_some(net::buffer(chunk), net::as_tuple(net::use_awaitable));
    if (ec)
      co_return;
    in.append(chunk, n);
  }
}

/// One thread serving every connection on 127.0.0.1 (`--port N`, else a
/// free port), each with `serve(socket)`; prints its URL on stderr (as the
/// servers cafmcp-load starts do) and serves until killed.
template <class Serve>
int run(int argc, char** argv, const char* name, Serve serve) {
  unsigned short port = 0;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--port" && i + 1 < argc)
      port = static_cast<unsigned short>(std::atoi(argv[++i]));
  net::io_context io(1);
  tcp::acceptor a(io, tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  std::fprintf(stderr, "%s on http://127.0.0.1:%u/mcp\n", name, a.local_endpoint().port());
  net::co_spawn(
    io,
    [&]() -> task<void> {
      for (;;) {
        auto [ec, s] = co_await a.async_accept(net::as_tuple(net::use_awaitable));
        if (ec)
          co_return;
        net::co_spawn(a.get_executor(), serve(std::move(s)), net::detached);
      }
    },
    net::detached);
  io.run();
  return 0;
}

} // namespace bare_http

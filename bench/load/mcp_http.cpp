#include "mcp_http.hpp"

#include <stdexcept>

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace cafmcp::load {

namespace http = beast::http;
using net::use_awaitable;

endpoint endpoint::parse(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0)
    throw std::runtime_error("only http:// URLs: " + url);
  auto rest = url.substr(scheme.size());
  auto slash = rest.find('/');
  auto hostport = rest.substr(0, slash);
  endpoint ep;
  ep.path = slash == std::string::npos ? "/" : rest.substr(slash);
  auto colon = hostport.rfind(':');
  ep.host = hostport.substr(0, colon);
  ep.port = colon == std::string::npos ? "80" : hostport.substr(colon + 1);
  auto addr = net::ip::make_address(ep.host == "localhost" ? "127.0.0.1" : ep.host);
  ep.resolved = tcp::endpoint(addr, static_cast<unsigned short>(std::stoi(ep.port)));
  return ep;
}

task<void> mcp_session::connect() {
  co_await sock_.async_connect(ep_.resolved, use_awaitable);
  sock_.set_option(tcp::no_delay(true));
}

std::string mcp_session::head(std::size_t length) const {
  std::string h = "POST " + ep_.path + " HTTP/1.1\r\nHost: " + ep_.host + ":" + ep_.port
                  + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
                    "MCP-Protocol-Version: "
                  + protocol_ + "\r\n" + ep_.extra_headers;
  if (!session_id_.empty())
    h += "Mcp-Session-Id: " + session_id_ + "\r\n";
  h += "Content-Length: " + std::to_string(length) + "\r\n\r\n";
  return h;
}

task<mcp_session::reply> mcp_session::post(std::string body, bool notification) {
  auto h = head(body.size());
  std::array<net::const_buffer, 2> out = {net::buffer(h), net::buffer(body)};
  co_await net::async_write(sock_, out, use_awaitable);
  http::response_parser<http::string_body> parser;
  parser.body_limit(64 << 20);
  co_await http::async_read(sock_, buf_, parser, use_awaitable);
  auto& res = parser.get();
  if (auto sid = res.find("Mcp-Session-Id"); sid != res.end() && session_id_.empty())
    session_id_ = std::string(sid->value());
  if (notification) { // 202, no body
    if (res.result_int() != 202)
      throw std::runtime_error("notification answered " + std::to_string(res.result_int()));
    co_return reply{};
  }
  if (res.result_int() != 200)
    throw std::runtime_error("HTTP " + std::to_string(res.result_int()) + ": " + res.body());
  auto type = res[http::field::content_type];
  co_return reply{type.find("text/event-stream") != std::string_view::npos, std::move(res.body())};
}

nlohmann::json mcp_session::message_of(const reply& r, std::int64_t id) {
  if (!r.event_stream)
    return nlohmann::json::parse(r.body);
  // An SSE response: the reply is the data line whose id is ours.
  const auto& text = r.body;
  std::size_t at = 0;
  while ((at = text.find("data:", at)) != std::string::npos) {
    auto end = text.find('\n', at);
    auto line = text.substr(at + 5, end == std::string::npos ? std::string::npos : end - at - 5);
    at = end == std::string::npos ? text.size() : end;
    auto msg = nlohmann::json::parse(line, nullptr, false);
    if (msg.is_object() && msg.contains("id") && msg["id"] == id)
      return msg;
  }
  throw std::runtime_error("no reply in the SSE response");
}

task<nlohmann::json> mcp_session::exchange(std::string body, std::int64_t id) {
  auto r = co_await post(std::move(body), id < 0);
  if (id < 0)
    co_return nullptr;
  co_return message_of(r, id);
}

task<void> mcp_session::open(std::string client_name) {
  co_await connect();
  nlohmann::json init = {{"jsonrpc", "2.0"},
                         {"id", next_id_++},
                         {"method", "initialize"},
                         {"params",
                          {{"protocolVersion", protocol_},
                           {"capabilities", nlohmann::json::object()},
                           {"clientInfo", {{"name", client_name}, {"version", "1"}}}}}};
  auto reply = co_await exchange(init.dump(), init["id"].get<std::int64_t>());
  if (!reply.contains("result"))
    throw std::runtime_error("initialize failed: " + reply.dump());
  protocol_ = reply["result"].value("protocolVersion", protocol_);
  co_await exchange(R"({"jsonrpc":"2.0","method":"notifications/initialized"})", -1);
}

task<nlohmann::json> mcp_session::call_text(std::string method, std::string params) {
  auto id = next_id_++;
  auto reply = co_await exchange(request_text(id, method, params), id);
  if (!reply.contains("result"))
    throw std::runtime_error(method + " failed: " + reply.dump());
  co_return std::move(reply["result"]);
}

task<bool> mcp_session::tool_succeeds(std::string name) {
  auto id = next_id_++;
  auto r = co_await post(request_text(id, "tools/call", tool_params(name, "{}")), false);
  if (r.event_stream) { // a server that streams its answer: the long way
    auto msg = message_of(r, id);
    if (!msg.contains("result"))
      throw std::runtime_error("tools/call " + name + " failed: " + msg.dump());
    co_return !msg["result"].value("isError", false);
  }
  switch (replies_.read(r.body, id)) {
    case tool_reply::result: co_return true;
    case tool_reply::error_result: co_return false;
    case tool_reply::other: break;
  }
  throw std::runtime_error("tools/call " + name + " failed: " + r.body);
}

void mcp_session::close() {
  beast::error_code ec;
  sock_.shutdown(tcp::socket::shutdown_both, ec);
  sock_.close(ec);
}

task<void> sse_stream::open(std::string session_id, std::string protocol) {
  co_await sock_.async_connect(ep_.resolved, use_awaitable);
  sock_.set_option(tcp::no_delay(true));
  std::string req = "GET " + ep_.path + " HTTP/1.1\r\nHost: " + ep_.host + ":" + ep_.port
                    + "\r\nAccept: text/event-stream\r\nMCP-Protocol-Version: " + protocol
                    + "\r\nMcp-Session-Id: " + session_id + "\r\n" + ep_.extra_headers + "\r\n";
  co_await net::async_write(sock_, net::buffer(req), use_awaitable);
  parser_.body_limit(boost::none);
  co_await http::async_read_header(sock_, buf_, parser_, use_awaitable);
  auto& res = parser_.get();
  if (res.result_int() != 200
      || res[http::field::content_type].find("text/event-stream") == std::string_view::npos)
    throw std::runtime_error("GET stream refused: HTTP " + std::to_string(res.result_int()));
}

task<void> sse_stream::run(std::function<void(std::string_view)> on_data, sse_poller* poller) {
  // Delayed ACKs on the stream (Linux's "pingpong" mode): an ACK per few
  // events instead of one per read. The ACK each read sent was a third of
  // this client's CPU per notification, taken from the two cores the
  // server under test needs too. The server sees fewer ACKs, nothing else.
  int quickack = 0;
  ::setsockopt(sock_.native_handle(), IPPROTO_TCP, TCP_QUICKACK, &quickack, sizeof quickack);
  char chunk[16384];
  if (!parser_.chunked()) {
    // A body that runs until the connection closes: the socket's bytes are
    // the events. Beast's parser per read is work that one event per read
    // (an update at a time) pays in full, and the load client must stay
    // cheap.
    auto rest = buf_.data();
    pending_.append(static_cast<const char*>(rest.data()), rest.size());
    buf_.consume(rest.size());
    split_events(on_data);
    if (poller) {
      on_data_ = std::move(on_data);
      poller_ = poller;
      polled_fd_ = sock_.release();
      poller_->add(polled_fd_, this, [this](const char* p, std::size_t n) {
        pending_.append(p, n);
        split_events(on_data_);
      });
      co_return;
    }
    for (;;) {
      auto [ec, n] = co_await sock_.async_read_some(net::buffer(chunk), net::as_tuple(use_awaitable));
      if (ec)
        break;
      pending_.append(chunk, n);
      split_events(on_data);
    }
    co_return;
  }
  while (!parser_.is_done()) {
    parser_.get().body().data = chunk;
    parser_.get().body().size = sizeof chunk;
    auto [ec, n] = co_await http::async_read_some(sock_, buf_, parser_, net::as_tuple(use_awaitable));
    if (ec && ec != http::error::need_buffer)
      break;
    auto got = sizeof chunk - parser_.get().body().size;
    pending_.append(chunk, got);
    split_events(on_data);
  }
}

// Events end with a blank line; only the data field matters here.
void sse_stream::split_events(std::function<void(std::string_view)>& on_data) {
  std::size_t start = 0;
  for (;;) {
    auto end = pending_.find("\n\n", start);
    if (end == std::string::npos)
      break;
    std::string_view event(pending_.data() + start, end - start);
    auto at = event.rfind("data:", 0) == 0 ? 0 : event.find("\ndata:");
    if (at != std::string_view::npos) {
      at += event[at] == '\n' ? 6 : 5;
      auto data = event.substr(at);
      if (!data.empty() && data.front() == ' ')
        data.remove_prefix(1);
      data = data.substr(0, data.find('\n'));
      if (!data.empty())
        on_data(data);
    }
    start = end + 2;
  }
  pending_.erase(0, start);
}

void sse_stream::close() {
  if (poller_) {
    poller_->remove(polled_fd_, this); // closes it, unless the poller did
    poller_ = nullptr;
    return;
  }
  beast::error_code ec;
  sock_.shutdown(tcp::socket::shutdown_both, ec);
  sock_.close(ec);
}

} // namespace cafmcp::load

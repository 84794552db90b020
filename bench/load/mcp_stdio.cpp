#include "mcp_stdio.hpp"

#include <stdexcept>

namespace cafmcp::load {

namespace net = boost::asio;
using net::use_awaitable;

stdio_session::stdio_session(net::any_io_executor ex, int to_server, int from_server)
  : out_(ex, to_server), in_(ex, from_server) {}

task<void> stdio_session::open(std::string client_name) {
  net::co_spawn(in_.get_executor(), read_loop(), net::detached);
  nlohmann::json params = {{"protocolVersion", "2025-11-25"},
                           {"capabilities", nlohmann::json::object()},
                           {"clientInfo", {{"name", client_name}, {"version", "1"}}}};
  co_await call("initialize", std::move(params));
  send_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
}

task<nlohmann::json> stdio_session::call_text(std::string method, std::string params) {
  auto id = next_id_++;
  waiter w(in_.get_executor());
  waiting_[id] = &w;
  send_line(request_text(id, method, params));
  while (!w.done && !closed_) {
    w.timer.expires_at(net::steady_timer::time_point::max());
    co_await w.timer.async_wait(net::as_tuple(use_awaitable));
  }
  waiting_.erase(id);
  if (!w.done)
    throw std::runtime_error(method + ": the server closed stdout");
  if (!w.reply.contains("result"))
    throw std::runtime_error(method + " failed: " + w.reply.dump());
  co_return std::move(w.reply["result"]);
}

void stdio_session::send_line(std::string line) {
  outbox_ += line;
  outbox_ += '\n';
  if (writing_)
    return; // the writer takes it along
  writing_ = true;
  net::co_spawn(out_.get_executor(), write_loop(), net::detached);
}

task<void> stdio_session::write_loop() {
  while (!outbox_.empty() && !closed_) {
    std::string chunk;
    chunk.swap(outbox_);
    auto [ec, n] = co_await net::async_write(out_, net::buffer(chunk), net::as_tuple(use_awaitable));
    if (ec)
      break;
  }
  writing_ = false;
}

task<void> stdio_session::read_loop() {
  for (;;) {
    auto [ec, n] =
      co_await net::async_read_until(in_, net::dynamic_buffer(inbuf_), '\n', net::as_tuple(use_awaitable));
    if (ec)
      break;
    dispatch(std::string_view(inbuf_.data(), n - 1));
    inbuf_.erase(0, n);
  }
  closed_ = true;
  for (auto& [id, w] : waiting_)
    w->timer.cancel();
}

void stdio_session::dispatch(std::string_view line) {
  bool has_id = line.find("\"id\"") != std::string_view::npos;
  if (!has_id && line.find("\"method\"") != std::string_view::npos) {
    if (on_notification)
      on_notification(line);
    return;
  }
  auto msg = nlohmann::json::parse(line, nullptr, false);
  if (!msg.is_object() || msg.contains("method") || !msg.contains("id") || !msg["id"].is_number_integer())
    return; // a server->client request or noise: not what the load asks for
  auto it = waiting_.find(msg["id"].get<std::int64_t>());
  if (it == waiting_.end())
    return;
  it->second->reply = std::move(msg);
  it->second->done = true;
  it->second->timer.cancel();
}

void stdio_session::close() {
  boost::system::error_code ec;
  out_.close(ec);
  in_.close(ec);
}

} // namespace cafmcp::load

#include "cafmcp/in_process.hpp"

#include <stdexcept>

#include "cafmcp/json_rpc.hpp"

#include "foundation/json_member.hpp"

namespace cafmcp {

// The transport side: frames arrive from actor threads, the test thread
// waits on them.
struct in_process_client::inbox : outbound {
  std::mutex mtx;
  std::condition_variable cv;
  std::deque<json> messages;
  bool closed = false;

  bool send(frame message, const routing&) override {
    auto parsed = json::parse(*message); // what a remote client would see
    std::lock_guard<std::mutex> guard(mtx);
    if (closed)
      return false;
    messages.push_back(std::move(parsed));
    cv.notify_all();
    return true;
  }

  void close() override {
    std::lock_guard<std::mutex> guard(mtx);
    closed = true;
    cv.notify_all();
  }
};

in_process_client::in_process_client(server& srv)
  : server_(&srv), inbox_(std::make_shared<inbox>()), conn_(srv.connect(inbox_)) {}

in_process_client::~in_process_client() { close(); }

void in_process_client::send(const json& message) { conn_->receive(jsonrpc::wire_text(message)); }
void in_process_client::send_text(std::string text) { conn_->receive(std::move(text)); }

json in_process_client::request(std::string method, json params, std::chrono::milliseconds wait) {
  auto id = ++next_id_;
  send(jsonrpc::request_message(id, method, std::move(params)));
  auto reply = wait_for(
    [id](const json& m) {
      return m.contains("id") && m["id"] == id && (m.contains("result") || m.contains("error"));
    },
    wait);
  if (!reply)
    throw std::runtime_error("no response to " + method + " within " + std::to_string(wait.count()) + " ms");
  return *reply;
}

void in_process_client::notify(std::string method, json params) {
  send(jsonrpc::notification_message(method, std::move(params)));
}

json in_process_client::initialize(json capabilities, std::string version) {
  auto reply = request("initialize", {{"protocolVersion", version},
                                      {"capabilities", std::move(capabilities)},
                                      {"clientInfo", {{"name", "in-process"}, {"version", "1"}}}});
  if (!reply.contains("result"))
    throw std::runtime_error("initialize failed: " + reply.dump());
  notify("notifications/initialized");
  // The session tells the notifier before it answers the ping; stats()
  // is then served after that activation.
  request("ping");
  server_->stats();
  return reply["result"];
}

std::optional<json> in_process_client::wait_for(const std::function<bool(const json&)>& match,
                                                std::chrono::milliseconds wait) {
  auto deadline = clock::now() + wait;
  std::unique_lock<std::mutex> lock(inbox_->mtx);
  auto take_first = [&]() -> std::optional<json> {
    for (auto it = inbox_->messages.begin(); it != inbox_->messages.end(); ++it)
      if (match(*it)) {
        auto found = std::move(*it);
        inbox_->messages.erase(it);
        return found;
      }
    return std::nullopt;
  };
  for (;;) {
    if (auto found = take_first())
      return found;
    if (inbox_->closed || inbox_->cv.wait_until(lock, deadline) == std::cv_status::timeout)
      return take_first(); // a message may have arrived with the timeout
  }
}

std::optional<json> in_process_client::wait_for_method(const std::string& method,
                                                       std::chrono::milliseconds wait) {
  return wait_for([&](const json& m) { return member_or(m, "method", "") == method; }, wait);
}

std::vector<json> in_process_client::take(const std::function<bool(const json&)>& match) {
  std::lock_guard<std::mutex> guard(inbox_->mtx);
  std::vector<json> out;
  for (auto it = inbox_->messages.begin(); it != inbox_->messages.end();)
    if (match(*it)) {
      out.push_back(std::move(*it));
      it = inbox_->messages.erase(it);
    } else {
      ++it;
    }
  return out;
}

bool in_process_client::closed_by_server() const {
  std::lock_guard<std::mutex> guard(inbox_->mtx);
  return inbox_->closed;
}

void in_process_client::close() {
  if (conn_)
    conn_->close();
}

const std::string& in_process_client::session_id() const { return conn_->id(); }

} // namespace cafmcp

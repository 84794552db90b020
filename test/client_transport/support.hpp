#pragma once
// What the client-transport tests share: a real server process (the
// everything-server, or any command) and a recorder of what a transport
// delivers, with bounded waits on conditions (never sleeps).
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <poll.h>
#include <unistd.h>

#include "cafmcp/client_transport.hpp"
#include "cafmcp/json.hpp"

#include "client_transport/child_process.hpp"

namespace cafmcp::test {

using namespace std::chrono_literals;

inline std::string bin(const std::string& name) { return std::string(CAFMCP_BIN_DIR) + "/" + name; }

/// A server started with `--http --port 0` (or any command printing
/// "http://HOST:PORT/PATH" or "https://..." on stderr); its stderr is
/// drained on a thread.
class http_server_process {
public:
  explicit http_server_process(std::vector<std::string> argv)
    : child_(std::make_unique<client_detail::child_process>(argv, client_detail::child_stderr::pipe)) {
    std::string buf;
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (url_.empty() && std::chrono::steady_clock::now() < deadline) {
      pollfd p{child_->stderr_fd(), POLLIN, 0};
      if (::poll(&p, 1, 200) <= 0)
        continue;
      char c[4096];
      auto n = ::read(child_->stderr_fd(), c, sizeof c);
      if (n <= 0)
        break;
      buf.append(c, static_cast<std::size_t>(n));
      auto at = buf.find("http://");
      if (at == std::string::npos)
        at = buf.find("https://");
      auto nl = at == std::string::npos ? std::string::npos : buf.find('\n', at);
      if (nl != std::string::npos)
        url_ = buf.substr(at, nl - at);
    }
    if (url_.empty())
      throw std::runtime_error("server printed no URL; stderr: " + buf);
    drain_ = std::thread([fd = child_->stderr_fd()] {
      char c[4096];
      while (::read(fd, c, sizeof c) > 0) {
      }
    });
  }
  ~http_server_process() {
    child_->stop(5s);
    drain_.join();
  }
  const std::string& url() const { return url_; }
  std::uint16_t port() const {
    return static_cast<std::uint16_t>(std::stoi(url_.substr(url_.rfind(':') + 1)));
  }

private:
  std::unique_ptr<client_detail::child_process> child_;
  std::string url_;
  std::thread drain_;
};

/// Everything a transport delivered, in order, plus its close reason.
class recorder {
public:
  client_transport::handlers handlers() {
    client_transport::handlers h;
    h.on_message = [this](std::string text) {
      std::lock_guard<std::mutex> g(mtx_);
      messages_.push_back(json::parse(text));
      cv_.notify_all();
    };
    h.on_closed = [this](std::string reason) {
      std::lock_guard<std::mutex> g(mtx_);
      ++closed_count_;
      closed_ = reason;
      cv_.notify_all();
    };
    return h;
  }

  /// The first message matching `pred`, waiting up to `timeout`.
  std::optional<json> wait_for(const std::function<bool(const json&)>& pred,
                               std::chrono::milliseconds timeout = 10s) {
    std::unique_lock<std::mutex> lk(mtx_);
    std::optional<json> found;
    cv_.wait_for(lk, timeout, [&] {
      for (auto& m : messages_)
        if (pred(m)) {
          found = m;
          return true;
        }
      return false;
    });
    return found;
  }
  std::optional<json> response(const json& id, std::chrono::milliseconds timeout = 10s) {
    return wait_for([&](const json& m) { return !m.contains("method") && m.value("id", json()) == id; },
                    timeout);
  }
  std::size_t count(const std::function<bool(const json&)>& pred) {
    std::lock_guard<std::mutex> g(mtx_);
    std::size_t n = 0;
    for (auto& m : messages_)
      n += pred(m) ? 1 : 0;
    return n;
  }
  /// Waits until `pred` matches at least `n` messages.
  bool wait_count(const std::function<bool(const json&)>& pred, std::size_t n,
                  std::chrono::milliseconds timeout = 10s) {
    std::unique_lock<std::mutex> lk(mtx_);
    return cv_.wait_for(lk, timeout, [&] {
      std::size_t k = 0;
      for (auto& m : messages_)
        k += pred(m) ? 1 : 0;
      return k >= n;
    });
  }
  std::optional<std::string> wait_closed(std::chrono::milliseconds timeout = 10s) {
    std::unique_lock<std::mutex> lk(mtx_);
    cv_.wait_for(lk, timeout, [&] { return closed_.has_value(); });
    return closed_;
  }
  int closed_count() {
    std::lock_guard<std::mutex> g(mtx_);
    return closed_count_;
  }

private:
  std::mutex mtx_;
  std::condition_variable cv_;
  std::vector<json> messages_;
  std::optional<std::string> closed_;
  int closed_count_ = 0;
};

inline std::string request(int id, const std::string& method, json params = json::object()) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}.dump();
}
inline std::string notification(const std::string& method) {
  return json{{"jsonrpc", "2.0"}, {"method", method}}.dump();
}
inline json initialize_params() {
  return {{"protocolVersion", "2025-11-25"},
          {"capabilities", json::object()},
          {"clientInfo", {{"name", "cafmcp-transport-test"}, {"version", "1"}}}};
}
inline std::string call_tool(int id, const std::string& name, json args, json meta = nullptr) {
  json params = {{"name", name}, {"arguments", std::move(args)}};
  if (!meta.is_null())
    params["_meta"] = std::move(meta);
  return request(id, "tools/call", std::move(params));
}

/// initialize -> response -> initialized -> negotiated(): the lifecycle a
/// client runs before anything else. Returns the initialize result.
inline json handshake(client_transport& t, recorder& r, int id = 1) {
  t.send(request(id, "initialize", initialize_params()));
  auto res = r.response(id);
  if (!res || !res->contains("result"))
    throw std::runtime_error("initialize failed: " + (res ? res->dump() : std::string("no answer")));
  t.send(notification("notifications/initialized"));
  t.negotiated((*res)["result"].value("protocolVersion", "2025-11-25"));
  return (*res)["result"];
}

} // namespace cafmcp::test

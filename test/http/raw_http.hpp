#pragma once
// A deliberately plain HTTP/1.1 client over one loopback socket, so the
// tests see exactly the bytes the server sends (status lines, headers, SSE
// framing). Every read has a deadline; nothing sleeps.
#include <algorithm>
#include <chrono>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cafmcp/json.hpp"

namespace cafmcp::test {

struct http_reply {
  int status = 0;
  std::map<std::string, std::string> headers; // lower-case names
  std::string body;
  std::string header(const std::string& name) const {
    auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
  json json_body() const { return json::parse(body); }
};

struct sse_event {
  std::string id;
  std::string data;
  std::string retry;
  std::size_t lines = 0; // all the event's lines (a torn stream shows extra ones)
};

class raw_http {
public:
  using ms = std::chrono::milliseconds;

  explicit raw_http(std::uint16_t port, int rcvbuf = 0) : port_(port) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    if (rcvbuf > 0)
      ::setsockopt(fd_, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof rcvbuf);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(port);
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
      throw std::runtime_error("connect failed");
    int one = 1;
    ::setsockopt(fd_, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  }
  ~raw_http() { close(); }
  raw_http(const raw_http&) = delete;

  void close() {
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = -1;
  }
  int fd() const { return fd_; }

  void send_raw(const std::string& bytes) {
    std::size_t done = 0;
    while (done < bytes.size()) {
      auto n = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
      if (n <= 0)
        throw std::runtime_error("send failed");
      done += static_cast<std::size_t>(n);
    }
  }

  /// A request with the headers a well-behaved MCP client sends.
  void send(const std::string& method, const std::string& body,
            std::map<std::string, std::string> headers = {}, const std::string& path = "/mcp") {
    send_raw(request_text(method, body, std::move(headers), path));
  }

  /// The bytes send() would send (to pipeline several in one write).
  std::string request_text(const std::string& method, const std::string& body,
                           std::map<std::string, std::string> headers = {},
                           const std::string& path = "/mcp") const {
    headers.try_emplace("Host", "127.0.0.1:" + std::to_string(port_));
    if (method == "POST") {
      headers.try_emplace("Content-Type", "application/json");
      headers.try_emplace("Accept", "application/json, text/event-stream");
    } else if (method == "GET") {
      headers.try_emplace("Accept", "text/event-stream");
    }
    std::string req = method + " " + path + " HTTP/1.1\r\n";
    for (auto& [k, v] : headers)
      if (!v.empty())
        req += k + ": " + v + "\r\n";
    req += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    return req;
  }

  /// Status line and headers (and the body when it has a Content-Length).
  http_reply read_reply(ms wait = ms(5000)) {
    auto deadline = std::chrono::steady_clock::now() + wait; // for the whole reply
    http_reply r;
    auto end = buffer_.find("\r\n\r\n");
    while (end == std::string::npos) {
      if (!fill(deadline))
        throw std::runtime_error("no reply; got: " + buffer_.substr(0, 200));
      end = buffer_.find("\r\n\r\n");
    }
    std::string head = buffer_.substr(0, end);
    buffer_.erase(0, end + 4);
    auto line_end = head.find("\r\n");
    r.status = std::stoi(head.substr(9, 3));
    std::size_t pos = line_end == std::string::npos ? head.size() : line_end + 2;
    while (pos < head.size()) {
      auto next = head.find("\r\n", pos);
      if (next == std::string::npos)
        next = head.size();
      auto line = head.substr(pos, next - pos);
      auto colon = line.find(':');
      std::string name = line.substr(0, colon);
      for (auto& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      auto value = line.substr(colon + 1);
      value.erase(0, value.find_first_not_of(' '));
      r.headers[name] = value;
      pos = next + 2;
    }
    if (r.headers.count("content-length")) {
      auto len = std::stoul(r.headers["content-length"]);
      while (buffer_.size() < len)
        if (!fill(deadline))
          throw std::runtime_error("short body");
      r.body = buffer_.substr(0, len);
      buffer_.erase(0, len);
    }
    return r;
  }

  /// The next SSE event with data (priming events, retry-only blocks and
  /// comments are skipped unless `include_empty`); nullopt at the deadline
  /// or when closed.
  std::optional<sse_event> next_event(ms wait = ms(5000), bool include_empty = false) {
    // One deadline for all: keep-alive comments and skipped events cannot
    // extend the wait.
    auto deadline = std::chrono::steady_clock::now() + wait;
    for (;;) {
      auto end = buffer_.find("\n\n");
      while (end == std::string::npos) {
        if (!fill(deadline))
          return std::nullopt;
        end = buffer_.find("\n\n");
      }
      auto block = buffer_.substr(0, end);
      buffer_.erase(0, end + 2);
      sse_event e;
      bool has_data = false;
      std::size_t pos = 0;
      while (pos <= block.size()) {
        auto next = block.find('\n', pos);
        if (next == std::string::npos)
          next = block.size();
        auto line = block.substr(pos, next - pos);
        ++e.lines;
        if (line.rfind("id: ", 0) == 0)
          e.id = line.substr(4);
        else if (line.rfind("retry: ", 0) == 0)
          e.retry = line.substr(7);
        else if (line.rfind("data: ", 0) == 0) {
          e.data = line.substr(6);
          has_data = true;
        }
        pos = next + 1;
      }
      if ((has_data && !e.data.empty()) || (include_empty && (!e.id.empty() || !e.retry.empty())))
        return e;
    }
  }

  /// True when the server closed the connection before the deadline.
  bool closed_by_peer(ms wait = ms(5000)) {
    auto deadline = std::chrono::steady_clock::now() + wait; // data still arriving cannot extend it
    for (;;) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, remaining(deadline)) <= 0)
        return false;
      char buf[4096];
      auto n = ::recv(fd_, buf, sizeof buf, 0);
      if (n <= 0)
        return true;
      buffer_.append(buf, static_cast<std::size_t>(n));
    }
  }

private:
  static int remaining(std::chrono::steady_clock::time_point deadline) {
    auto left = std::chrono::duration_cast<ms>(deadline - std::chrono::steady_clock::now()).count();
    return static_cast<int>(std::max<long long>(0, left));
  }

  bool fill(std::chrono::steady_clock::time_point deadline) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, remaining(deadline)) <= 0)
      return false;
    char buf[65536];
    auto n = ::recv(fd_, buf, sizeof buf, 0);
    if (n <= 0)
      return false;
    buffer_.append(buf, static_cast<std::size_t>(n));
    return true;
  }

  std::uint16_t port_;
  int fd_ = -1;
  std::string buffer_;
};

inline std::string initialize_body(int id = 1) {
  return json{{"jsonrpc", "2.0"},
              {"id", id},
              {"method", "initialize"},
              {"params",
               {{"protocolVersion", "2025-11-25"},
                {"capabilities", json::object()},
                {"clientInfo", {{"name", "raw"}, {"version", "1"}}}}}}
    .dump();
}

inline std::string rpc(int id, const std::string& method, json params = json::object()) {
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}}.dump();
}

inline const std::string initialized_body = R"({"jsonrpc":"2.0","method":"notifications/initialized"})";

/// A 2026-07-28 request (stateless: its client facts in `_meta`) and the
/// headers it must mirror.
inline std::string stateless_body(int id, const std::string& method, json params = json::object()) {
  params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                     {"io.modelcontextprotocol/clientCapabilities", json::object()}};
  return json{{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", params}}.dump();
}

inline std::map<std::string, std::string> stateless_headers(const std::string& method,
                                                            const std::string& name = {}) {
  return {{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", method}, {"Mcp-Name", name}};
}

} // namespace cafmcp::test

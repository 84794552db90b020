#pragma once
// A scripted HTTP/1.1 server on 127.0.0.1 for exporter tests: answers the
// n-th connection with the n-th scripted response and records each request.
#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace cafmcp::otel::testing {

struct recorded_request {
  std::string request_line;
  std::map<std::string, std::string> headers; // names lowercased
  std::string body;
};

inline std::string http_response(int status, const std::string& extra_headers = {},
                                 const std::string& body = "{}") {
  return "HTTP/1.1 " + std::to_string(status) + " Status\r\nContent-Type: application/json\r\n"
         + extra_headers + "Content-Length: " + std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n"
         + body;
}

class loopback_http_server {
public:
  explicit loopback_http_server(std::vector<std::string> responses) : responses_(std::move(responses)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (fd_ < 0 || ::bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd_, 8) != 0)
      throw std::runtime_error("loopback_http_server: cannot listen");
    socklen_t len = sizeof a;
    ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~loopback_http_server() {
    ::shutdown(fd_, SHUT_RDWR); // wakes a pending accept
    thread_.join();
    ::close(fd_);
  }
  std::string url(const std::string& path = "") const {
    return "http://127.0.0.1:" + std::to_string(port_) + path;
  }
  /// Waits (bounded) until `n` requests were answered; returns them all.
  std::vector<recorded_request> wait_for(std::size_t n,
                                         std::chrono::milliseconds timeout = std::chrono::seconds(10)) {
    std::unique_lock<std::mutex> lock(mtx_);
    cv_.wait_for(lock, timeout, [&] { return requests_.size() >= n; });
    return requests_;
  }

private:
  static std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    return s;
  }
  static bool read_request(int c, recorded_request& out) {
    std::string data;
    char buf[16384];
    std::size_t head_end = std::string::npos, need = 0;
    for (int reads = 0; reads < 10000; ++reads) {
      if (head_end != std::string::npos && data.size() >= need)
        break;
      auto n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0)
        return false;
      data.append(buf, static_cast<std::size_t>(n));
      if (head_end == std::string::npos && (head_end = data.find("\r\n\r\n")) != std::string::npos) {
        std::size_t pos = data.find("\r\n");
        out.request_line = data.substr(0, pos);
        while (pos < head_end) {
          auto next = data.find("\r\n", pos + 2);
          auto line = data.substr(pos + 2, next - pos - 2);
          auto colon = line.find(':');
          if (colon != std::string::npos)
            out.headers[lower(line.substr(0, colon))] = line.substr(line.find_first_not_of(' ', colon + 1));
          pos = next;
        }
        auto cl = out.headers.find("content-length");
        need = head_end + 4 + (cl == out.headers.end() ? 0 : std::stoul(cl->second));
      }
    }
    out.body = data.substr(head_end + 4);
    return true;
  }
  void serve() {
    for (auto& response : responses_) {
      int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0)
        return;
      recorded_request r;
      bool ok = read_request(c, r);
      if (ok)
        ::send(c, response.data(), response.size(), MSG_NOSIGNAL);
      ::close(c);
      std::lock_guard<std::mutex> g(mtx_);
      if (ok)
        requests_.push_back(std::move(r));
      cv_.notify_all();
    }
  }

  std::vector<std::string> responses_;
  int fd_ = -1;
  std::uint16_t port_ = 0;
  std::thread thread_;
  std::mutex mtx_;
  std::condition_variable cv_;
  std::vector<recorded_request> requests_;
};

} // namespace cafmcp::otel::testing

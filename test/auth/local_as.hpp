#pragma once
// A stand-in authorization server on a loopback port for the verifiers'
// unit tests: it serves what the test sets (a JWKS, introspection answers)
// over real HTTP and counts what it was asked. The full flows run against
// the real oidc-provider in test/interop/auth.test.mjs.
#include <atomic>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace cafmcp::test {

class local_as {
public:
  struct asked {
    std::string method, target, authorization, body;
  };
  using handler = std::function<std::pair<int, std::string>(const asked&)>;

  explicit local_as(handler h) : handler_(std::move(h)), acceptor_(ioc_, {boost::asio::ip::make_address("127.0.0.1"), 0}) {
    thread_ = std::thread([this] { serve(); });
  }
  ~local_as() {
    stopping_ = true;
    boost::system::error_code ec;
    // Wake the blocking accept with one last connection.
    boost::asio::io_context wake;
    boost::asio::ip::tcp::socket s(wake);
    s.connect(acceptor_.local_endpoint(), ec);
    thread_.join();
  }
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + path;
  }
  /// Requests served for `target` so far.
  int count(const std::string& target) {
    std::lock_guard lock(mtx_);
    return counts_[target];
  }
  void set(handler h) {
    std::lock_guard lock(mtx_);
    handler_ = std::move(h);
  }

private:
  void serve() {
    namespace http = boost::beast::http;
    while (!stopping_) {
      boost::asio::ip::tcp::socket sock(ioc_);
      boost::system::error_code ec;
      acceptor_.accept(sock, ec);
      if (ec || stopping_)
        continue;
      boost::beast::flat_buffer buf;
      http::request<http::string_body> req;
      http::read(sock, buf, req, ec);
      if (ec)
        continue;
      asked a{std::string(req.method_string()), std::string(req.target()),
              std::string(req[http::field::authorization]), req.body()};
      std::pair<int, std::string> answer;
      {
        std::lock_guard lock(mtx_);
        ++counts_[a.target];
        answer = handler_(a);
      }
      http::response<http::string_body> res{static_cast<http::status>(answer.first), 11};
      res.set(http::field::content_type, "application/json");
      res.body() = answer.second;
      res.prepare_payload();
      http::write(sock, res, ec);
      sock.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
    }
  }

  std::mutex mtx_;
  handler handler_;
  std::map<std::string, int> counts_;
  boost::asio::io_context ioc_;
  boost::asio::ip::tcp::acceptor acceptor_;
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

} // namespace cafmcp::test

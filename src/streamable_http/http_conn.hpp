#pragma once
// One client TCP connection. Beast parses requests (with size limits);
// responses and SSE streams are written from a bounded queue of buffers
// that reference the shared frames (no copy per connection). A connection
// answers requests one at a time (keep-alive); once it carries an SSE
// stream it stays a stream until it closes.
#include <chrono>
#include <deque>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "cafmcp/transport.hpp"

namespace cafmcp::http {

namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;
using request = beast::http::request<beast::http::string_body>;

struct transport_state;

class http_conn : public std::enable_shared_from_this<http_conn> {
public:
  http_conn(tcp::socket socket, transport_state& st);
  ~http_conn();

  void start();

  /// A complete response; the connection reads the next request afterwards
  /// (keep-alive) or closes.
  void respond(int status, const std::string& content_type, const std::string& extra_headers,
               frame body);
  /// Switch to an SSE stream (`Connection: close`: it ends with the socket).
  void begin_sse(const std::string& extra_headers);
  void send_text(std::string text); // priming event, comment
  void send_event(std::string head, frame data);
  /// Close once everything queued is written.
  void end_sse();
  /// Close now (client too slow, shutdown).
  void drop();

  bool open() const { return !closed_; }
  bool streaming() const { return sse_; }
  std::chrono::steady_clock::time_point last_write() const { return last_write_; }
  /// Called once when the connection closes, whatever the reason.
  std::function<void()> on_close;

private:
  struct chunk {
    std::string head;
    frame body;
    std::string tail;
  };
  void read_request();
  void on_read(beast::error_code ec);
  void watch_for_close();
  void enqueue(chunk c);
  void write_next();
  void finish();

  tcp::socket socket_;
  transport_state& st_;
  beast::flat_buffer buffer_;
  std::unique_ptr<beast::http::request_parser<beast::http::string_body>> parser_;
  std::deque<chunk> queue_;
  std::size_t queued_bytes_ = 0;
  // What one write takes from the front of the queue: every chunk queued
  // while the previous write was in flight goes out in one gathered write
  // (in order). A lone chunk is written at once, never held back.
  static constexpr std::size_t max_chunks_per_write = 128;
  std::vector<net::const_buffer> gather_;
  std::size_t in_flight_ = 0; // chunks the current write covers
  bool writing_ = false;
  bool write_scheduled_ = false;
  bool keep_alive_ = true;
  bool sse_ = false;
  bool read_after_write_ = false;
  bool close_after_write_ = false;
  bool closed_ = false;
  char watch_byte_[64];
  std::chrono::steady_clock::time_point last_write_ = std::chrono::steady_clock::now();
};

} // namespace cafmcp::http

#pragma once
// One client TCP connection. Beast parses requests (with size limits) and
// the connection hands each to its loop's request_handler with itself as
// the reply handle; it knows no MCP. Responses and SSE streams are written
// from a bounded queue of buffers that reference the shared frames (no copy
// per connection). A connection answers requests one at a time
// (keep-alive); once it carries an SSE stream it stays a stream until it
// closes.
#include <array>
#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <sys/uio.h>

#include "cafmcp/transport.hpp"

#include "streamable_http/connection_loop.hpp"
#include "streamable_http/http_request.hpp"
#include "streamable_http/request_parser.hpp"
#include "streamable_http/sse.hpp"
#include "streamable_http/stream_mark.hpp"

namespace cafmcp::http {

class http_conn : public std::enable_shared_from_this<http_conn> {
public:
  http_conn(loop_socket socket, connection_loop& loop);
  ~http_conn();

  void start();
  /// Hands this connection's socket, with the request just read and any
  /// bytes read past it, to the loop `to`, which answers the request there
  /// and serves the connection from then on. This object is done with it.
  void move_to(connection_loop& to, request req);

  /// A complete response; the connection reads the next request afterwards
  /// (keep-alive) or closes.
  void respond(int status, const std::string& content_type, const std::string& extra_headers, frame body);
  /// Switch to an SSE stream (`Connection: close`: it ends with the socket).
  void begin_sse(const std::string& extra_headers);
  void send_text(std::string text); // priming event, comment
  /// Whether more may be sent to this connection in the same step of the
  /// loop. `maybe`: the event queues, and what is routed together goes out
  /// in one gathered write (a storm). `no` (a lone delivery, one update at
  /// a time): on an idle connection the event's bytes go straight into the
  /// step's collected writes.
  enum class followed { maybe, no };
  /// One SSE event: "id: <stream>-<seq>", the shared frame as its data.
  void send_event(std::uint64_t stream, std::uint64_t seq, frame data, followed next = followed::maybe);
  /// One SSE event named by a cluster's stream_mark.
  void send_event(const stream_mark& id, frame data, followed next = followed::maybe);
  /// Close once everything queued is written.
  void end_sse();
  /// end_sse() at `t` (the bearer token that opened the stream expires).
  void end_sse_at(std::chrono::steady_clock::time_point t);
  /// Close now (client too slow, shutdown).
  void drop();

  bool open() const { return !closed_; }
  bool streaming() const { return sse_; }
  std::chrono::steady_clock::time_point last_write() const { return last_write_; }
  /// Called once when the connection closes, whatever the reason.
  std::function<void()> on_close;

  /// Starts writing what is queued (the loop's writes_due runs it on the
  /// loop's next step after the first frame was queued).
  static void start_due_write(std::shared_ptr<http_conn>& c);
  /// Sends the small writes those collected, together (writes_due runs it
  /// once a step's due writes have started; `loop`: their connection_loop).
  static void send_collected(void* loop);

private:
  // One cache line per chunk: the queue is cold for every connection a
  // broadcast reaches, and an event touches only its first line. An SSE
  // event's head lives inside the chunk (no allocation per delivery) unless
  // it is longer than a live stream's ever is; a response head or a text
  // (or such a head) lives in `text`.
  static constexpr std::size_t inline_head = 38;
  struct chunk {
    frame body;
    std::unique_ptr<std::string> text;
    std::uint8_t event_head_size = 0;
    bool event = false; // body is followed by the blank line ending an event
    std::array<char, inline_head> event_head{}; // zeroed: a chunk is moved whole
    std::size_t size() const;
    void set_head(const char* head, std::size_t n);
  };
  void adopt(std::string_view unread, bool keep_alive);
  void read_request();
  void parse_buffered();
  void on_bytes(beast::error_code ec, std::size_t n);
  void on_read(beast::error_code ec);
  void read_within(std::chrono::milliseconds limit);
  void arm_read_wait();
  void on_read_wait();
  void on_read_timeout();
  void watch_for_close();
  void send_event_headed(const char* head, std::size_t head_size, frame data, followed next);
  bool collect_event(const char* head, std::size_t head_size, const frame& body);
  void enqueue(chunk c);
  void write_next();
  bool write_now(std::size_t total);
  bool after_send(long result, const ::iovec* pieces, std::size_t count, std::size_t total);
  void sent_collected(const send_ring::job& sent);
  void written(std::size_t bytes);
  void consume_in_flight();
  bool nothing_queued() const { return queue_head_ == queue_.size(); }
  void finish();
  void count_unwritten(bool has_bytes);

  // What a delivery touches comes first, next to the reference count
  // (make_shared puts it just before this object): two cache lines per
  // connection, where these fields behind the socket, timer and parser
  // spread over five. A broadcast finds each connection's lines cold
  // (with the 64-byte chunk: 25.9 -> 22.2 D1 read misses per delivery,
  // cachegrind, 2,000 sessions).
  connection_loop& loop_;
  // Chunks [queue_head_, end) wait; the slots before it were written and
  // go when the queue empties (or, under a backlog, once they are half of
  // it and at least compact_after). A vector reused in place: a deque's
  // map and blocks were two more cold lines per delivery, and half a KiB
  // per idle connection. Nothing points into a chunk once write_now
  // returns (a partial write copies its rest), so the vector may grow.
  std::vector<chunk> queue_;
  std::size_t queue_head_ = 0;
  static constexpr std::size_t compact_after = 64;
  std::size_t queued_bytes_ = 0;
  // What one write takes from the front of the queue: every chunk queued
  // while the previous write was in flight goes out in one gathered write
  // (in order). A lone chunk is written at once, never held back. A write
  // is tried right away (the socket is non-blocking): on loopback and on an
  // idle connection the kernel takes it all, with no asynchronous operation
  // and no completion handler.
  static constexpr std::size_t max_chunks_per_write = 128;
  static constexpr std::size_t flat_write_limit = 4096;
  std::size_t in_flight_ = 0; // chunks the current write covers
  std::chrono::steady_clock::time_point last_write_ = std::chrono::steady_clock::now();
  bool writing_ = false;
  bool write_scheduled_ = false;
  bool keep_alive_ = true;
  bool sse_ = false;
  bool read_after_write_ = false;
  bool close_after_write_ = false;
  bool closed_ = false;
  bool over_limit_ = false;        // accepted past max_connections: answered 503
  bool timed_out_ = false;         // the request did not arrive in time
  bool counted_unwritten_ = false; // in loop_.unwritten
  bool read_wait_armed_ = false;   // a wait for read_deadline_ is pending
  bool header_read_ = false;       // the request's header is in: the body's deadline runs
  int fd_ = -1;                    // socket_'s, on the lines a delivery touches
  loop_socket socket_;
  net::steady_timer read_timer_; // waits for the read's deadline (or an SSE stream's end)
  static constexpr auto no_read_deadline = std::chrono::steady_clock::time_point::max();
  std::chrono::steady_clock::time_point read_deadline_ = no_read_deadline; // of the read open, if one is
  beast::flat_buffer buffer_;
  std::unique_ptr<request_parser> parser_; // its memory kept from request to request
  std::string unsent_; // what a write left, copied: written asynchronously
  // What an SSE client sends, read only to notice that it left (it sends
  // nothing else). Small: a stream's connection is kept for thousands of
  // sessions, and with make_shared's counts it stays in jemalloc's 512-byte
  // class (past it, the next class is 640: 0.125 KiB more per session).
  char watch_byte_[16];
};

} // namespace cafmcp::http

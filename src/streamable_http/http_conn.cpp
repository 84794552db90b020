#include "streamable_http/http_conn.hpp"

#include "streamable_http/transport_state.hpp"

namespace cafmcp::http {
namespace {

const char* reason(int status) {
  switch (status) {
    case 200: return "OK";
    case 202: return "Accepted";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 406: return "Not Acceptable";
    case 409: return "Conflict";
    case 410: return "Gone";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 431: return "Request Header Fields Too Large";
    case 503: return "Service Unavailable";
    default: return "Error";
  }
}

} // namespace

http_conn::http_conn(tcp::socket socket, transport_state& st) : socket_(std::move(socket)), st_(st) {
  ++st_.open_connections;
}

http_conn::~http_conn() { --st_.open_connections; }

void http_conn::start() {
  beast::error_code ec;
  socket_.set_option(tcp::no_delay(true), ec); // small frames must not wait for Nagle
  read_request();
}

void http_conn::read_request() {
  parser_ = std::make_unique<beast::http::request_parser<beast::http::string_body>>();
  parser_->body_limit(st_.options.max_body_bytes);
  parser_->header_limit(static_cast<std::uint32_t>(st_.options.max_header_bytes));
  beast::http::async_read(socket_, buffer_, *parser_,
                          [self = shared_from_this()](beast::error_code ec, std::size_t) {
                            self->on_read(ec);
                          });
}

void http_conn::on_read(beast::error_code ec) {
  using beast::http::error;
  if (ec == error::body_limit) {
    keep_alive_ = false;
    return st_.reject(shared_from_this(), 413, "Payload too large", std::nullopt);
  }
  if (ec == error::header_limit) {
    keep_alive_ = false;
    return st_.reject(shared_from_this(), 431, "Request header fields too large", std::nullopt);
  }
  bool parse_error = ec && ec.category() == beast::http::make_error_code(error::bad_target).category()
                     && ec != error::end_of_stream && ec != error::partial_message;
  if (parse_error) {
    keep_alive_ = false; // malformed HTTP: answer, then hang up
    return st_.reject(shared_from_this(), 400, "Malformed HTTP request", std::nullopt);
  }
  if (ec)
    return finish();
  auto req = parser_->release();
  keep_alive_ = req.keep_alive();
  st_.handle(shared_from_this(), std::move(req));
}

void http_conn::respond(int status, const std::string& content_type,
                        const std::string& extra_headers, frame body) {
  std::string head = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
  if (!content_type.empty())
    head += "Content-Type: " + content_type + "\r\n";
  head += "Content-Length: " + std::to_string(body ? body->size() : 0) + "\r\n";
  head += extra_headers;
  head += keep_alive_ ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n";
  if (keep_alive_)
    read_after_write_ = true;
  else
    close_after_write_ = true;
  enqueue({std::move(head), std::move(body), {}});
}

void http_conn::begin_sse(const std::string& extra_headers) {
  sse_ = true;
  ++st_.open_streams;
  std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                     "Cache-Control: no-cache\r\nConnection: close\r\n"
                     + extra_headers + "\r\n";
  enqueue({std::move(head), nullptr, {}});
  watch_for_close();
}

// An SSE client never sends more; a read completing means it left.
void http_conn::watch_for_close() {
  socket_.async_read_some(net::buffer(watch_byte_),
                          [self = shared_from_this()](beast::error_code ec, std::size_t) {
                            if (ec)
                              self->finish();
                            else if (!self->closed_)
                              self->watch_for_close();
                          });
}

void http_conn::send_text(std::string text) { enqueue({std::move(text), nullptr, {}}); }

void http_conn::send_event(std::string head, frame data) {
  enqueue({std::move(head), std::move(data), "\n\n"});
}

void http_conn::end_sse() {
  close_after_write_ = true;
  if (!writing_ && !write_scheduled_ && queue_.empty())
    finish();
}

void http_conn::enqueue(chunk c) {
  if (closed_)
    return;
  queued_bytes_ += c.head.size() + (c.body ? c.body->size() : 0) + c.tail.size();
  if (queued_bytes_ > st_.options.max_unread_bytes) {
    // This client stopped reading: it loses its connection, not anyone
    // else's delivery; what it missed stays in the stream's history.
    ++st_.dropped_slow;
    return drop();
  }
  queue_.push_back(std::move(c));
  if (writing_ || write_scheduled_)
    return; // the write in flight (or about to start) takes it along
  // Start the write once the event loop has run what is already queued for
  // it: frames for this connection routed in the same turn (a burst of
  // broadcasts) then share one gathered write. No timer: a lone frame goes
  // out on the loop's very next step.
  write_scheduled_ = true;
  net::post(socket_.get_executor(), [self = shared_from_this()] {
    self->write_scheduled_ = false;
    if (!self->closed_ && !self->writing_)
      self->write_next();
  });
}

void http_conn::write_next() {
  if (queue_.empty()) {
    writing_ = false;
    if (close_after_write_)
      return finish();
    if (read_after_write_) {
      read_after_write_ = false;
      read_request();
    }
    return;
  }
  writing_ = true;
  gather_.clear();
  in_flight_ = std::min(queue_.size(), max_chunks_per_write);
  for (std::size_t i = 0; i < in_flight_; ++i) {
    auto& c = queue_[i]; // deque elements stay put while more are pushed behind them
    if (!c.head.empty())
      gather_.push_back(net::buffer(c.head));
    if (c.body && !c.body->empty())
      gather_.push_back(net::buffer(*c.body));
    if (!c.tail.empty())
      gather_.push_back(net::buffer(c.tail));
  }
  auto bufs = std::span<const net::const_buffer>(gather_.data(), gather_.size());
  net::async_write(socket_, bufs, [self = shared_from_this()](beast::error_code ec, std::size_t n) {
    self->writing_ = false;
    if (ec || self->closed_) { // closed meanwhile: the queue is no longer ours to walk
      self->queue_.clear();
      return self->finish();
    }
    self->queued_bytes_ -= n;
    self->last_write_ = std::chrono::steady_clock::now();
    self->queue_.erase(self->queue_.begin(), self->queue_.begin() + static_cast<long>(self->in_flight_));
    self->write_next();
  });
}

void http_conn::drop() { finish(); }

void http_conn::finish() {
  if (closed_)
    return;
  closed_ = true;
  if (sse_)
    --st_.open_streams;
  beast::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  if (!writing_) // an in-flight write still points into the front chunk
    queue_.clear();
  if (on_close) {
    auto cb = std::move(on_close);
    cb();
  }
}

} // namespace cafmcp::http

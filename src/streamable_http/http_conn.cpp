#include "streamable_http/http_conn.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <memory>
#include <string_view>
#include <type_traits>

#include <sys/socket.h>
#include <unistd.h>

#include <boost/beast/core/read_size.hpp>

#include "foundation/prefetch.hpp"
#include "streamable_http/coarse_clock.hpp"

namespace cafmcp::http {

http_conn::http_conn(loop_socket socket, connection_loop& loop)
  : loop_(loop), socket_(std::move(socket)), read_timer_(socket_.get_executor()) {
  fd_ = socket_.native_handle();
  ++loop_.counters.open_connections;
}

http_conn::~http_conn() {
  --loop_.counters.open_connections;
  loop_.counters.queued_bytes -= queued_bytes_; // what was never written
}

std::size_t http_conn::chunk::size() const {
  return (text ? text->size() : 0) + event_head_size + (body ? body->size() : 0)
         + (event ? event_tail.size() : 0);
}

void http_conn::chunk::set_head(const char* head, std::size_t n) {
  static_assert(sizeof(chunk) == 64, "one cache line per queued chunk");
  if (n <= inline_head) {
    std::memcpy(event_head.data(), head, n);
    event_head_size = static_cast<std::uint8_t>(n);
  } else { // written before the body, as an inline head would be
    text = std::make_unique<std::string>(head, n);
  }
}

void http_conn::start() {
  beast::error_code ec;
  socket_.set_option(tcp::no_delay(true), ec); // small frames must not wait for Nagle
  socket_.non_blocking(true, ec);              // write_now never blocks the loop
  // Past the limit: read the request (bounded by the header timeout) and
  // answer it 503, so the client sees a status rather than a reset.
  over_limit_ = loop_.counters.open_connections.load() > loop_.limits.max_connections;
  read_request();
}

void http_conn::move_to(connection_loop& to, request req) {
  // No request of its own is open (HTTP/1.1 answers one at a time), so no
  // one is owed an on_close; the socket is not closed but handed on.
  closed_ = true;
  on_close = nullptr;
  read_timer_.cancel();
  beast::error_code ec;
  auto protocol = socket_.local_endpoint(ec).protocol();
  if (ec) // the client already left: nothing to hand over
    return;
  auto fd = socket_.release(ec);
  if (ec)
    return;
  loop_socket moved(to.ioc);
  moved.assign(protocol, fd, ec);
  if (ec) {
    ::close(fd);
    return;
  }
  std::string unread(static_cast<const char*>(buffer_.data().data()), buffer_.size());
  net::post(to.ioc, [&to, socket = std::move(moved), req = std::move(req), unread = std::move(unread),
                     keep_alive = keep_alive_]() mutable {
    auto c = std::make_shared<http_conn>(std::move(socket), to);
    c->adopt(unread, keep_alive);
    to.handler->handle(c, std::move(req));
  });
}

void http_conn::adopt(std::string_view unread, bool keep_alive) {
  beast::error_code ec;
  socket_.non_blocking(true, ec); // no_delay is the socket's own and stays
  buffer_.commit(net::buffer_copy(buffer_.prepare(unread.size()), net::buffer(unread)));
  keep_alive_ = keep_alive;
}

void http_conn::read_request() {
  static_assert(std::is_nothrow_default_constructible_v<request_parser>); // nothing left half made
  if (parser_) { // a parser is spent after one request: a new one in the old one's memory
    std::destroy_at(parser_.get());
    std::construct_at(parser_.get());
  } else {
    parser_ = std::make_unique<request_parser>();
  }
  parser_->body_limit(loop_.limits.max_body_bytes);
  parser_->header_limit(static_cast<std::uint32_t>(loop_.limits.max_header_bytes));
  parser_->eager(true); // the header and what came of the body, in one pass
  header_read_ = false;
  read_within(loop_.limits.header_timeout);
  parse_buffered();
}

// The connection's own read loop around Beast's parser, where Beast's
// async_read_header and async_read were two composed operations a request
// (each a state machine over a dynamic buffer, and a posted completion).
// It does what they do: parse what is buffered; when the parser needs more,
// read what the socket has (at least 512 bytes of room, at most 64 KiB, as
// Beast sizes it; the parser's header and body limits bound the buffer);
// at end of stream, a request begun is a partial message, none is
// end_of_stream. A header complete starts the body's deadline.
void http_conn::parse_buffered() {
  beast::error_code ec;
  while (buffer_.size() != 0) {
    auto used = parser_->put(buffer_.data(), ec);
    buffer_.consume(used);
    if (ec == beast::http::error::need_more) {
      ec = {};
      break;
    }
    if (ec || parser_->is_done())
      return on_read(ec);
    if (used == 0)
      break; // no progress without more bytes
  }
  if (!header_read_ && parser_->is_header_done()) {
    header_read_ = true;
    read_within(loop_.limits.body_timeout);
  }
  socket_.async_read_some(buffer_.prepare(beast::read_size(buffer_, 65536)),
                          [self = shared_from_this()](beast::error_code ec, std::size_t n) {
                            self->on_bytes(ec, n);
                          });
}

void http_conn::on_bytes(beast::error_code ec, std::size_t n) {
  buffer_.commit(n);
  if (ec == net::error::eof) {
    if (!parser_->got_some())
      return on_read(beast::http::error::end_of_stream);
    ec = {};
    parser_->put_eof(ec); // a request cut short: partial_message
    return on_read(ec);
  }
  if (ec)
    return on_read(ec);
  parse_buffered();
}

// A read's deadline only moves the deadline (a coarse clock read): one
// wait stays armed while the connection lives and reads. Re-arming the
// timer per request cost a cancel, the aborted wait's handler and two
// timer-queue updates (~1,600 instructions a request, callgrind). The
// wait, when it ends, looks at the deadline: passed, the read timed out;
// later, it waits on until then; none (no read open), it lets go and the
// next read arms it. A deadline earlier than the armed wait's re-arms it.
void http_conn::read_within(std::chrono::milliseconds limit) {
  read_deadline_ = coarse_now() + limit;
  if (!read_wait_armed_ || read_deadline_ < read_timer_.expiry())
    arm_read_wait();
}

void http_conn::arm_read_wait() {
  read_wait_armed_ = true;
  read_timer_.expires_at(read_deadline_); // a wait armed before ends aborted
  read_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (!ec) // aborted: re-armed (a newer wait stands), or the connection closed
      self->on_read_wait();
  });
}

void http_conn::on_read_wait() {
  read_wait_armed_ = false;
  if (closed_ || read_deadline_ == no_read_deadline)
    return;
  if (std::chrono::steady_clock::now() < read_deadline_)
    return arm_read_wait();
  on_read_timeout();
}

// Nothing came: the connection closes (an idle keep-alive one, or a client
// that connected and said nothing). Part of a request came: 408, then close.
// The read still pending ends with the socket and is ignored (timed_out_).
void http_conn::on_read_timeout() {
  if (closed_)
    return;
  timed_out_ = true;
  if (buffer_.size() == 0 && !parser_->got_some())
    return finish();
  keep_alive_ = false;
  loop_.handler->refuse(shared_from_this(), 408, "Request timeout: the request did not arrive in time");
}

void http_conn::on_read(beast::error_code ec) {
  using beast::http::error;
  read_deadline_ = no_read_deadline; // the wait, when it ends, lets go
  if (timed_out_)
    return; // answered 408 (or closed) already
  if (over_limit_ && !ec) {
    keep_alive_ = false;
    return loop_.handler->refuse(shared_from_this(), 503, "Too many connections; retry later");
  }
  if (ec == error::body_limit) {
    keep_alive_ = false;
    return loop_.handler->refuse(shared_from_this(), 413, "Payload too large");
  }
  if (ec == error::header_limit) {
    keep_alive_ = false;
    return loop_.handler->refuse(shared_from_this(), 431, "Request header fields too large");
  }
  bool parse_error = ec && ec.category() == beast::http::make_error_code(error::bad_target).category()
                     && ec != error::end_of_stream && ec != error::partial_message;
  if (parse_error) {
    keep_alive_ = false; // malformed HTTP: answer, then hang up
    return loop_.handler->refuse(shared_from_this(), 400, "Malformed HTTP request");
  }
  if (ec)
    return finish();
  auto req = parser_->release();
  keep_alive_ = req.keep_alive();
  loop_.handler->handle(shared_from_this(), std::move(req));
}

void http_conn::respond(int status, const std::string& content_type, const std::string& extra_headers,
                        frame body) {
  using namespace std::string_view_literals;
  auto reason = beast::http::obsolete_reason(beast::http::int_to_status(static_cast<unsigned>(status)));
  const std::string_view connection =
    keep_alive_ ? "Connection: keep-alive\r\n\r\n"sv : "Connection: close\r\n\r\n"sv;
  char numbers[2][24];
  auto number = [](char* to, std::size_t n) {
    return std::string_view(to, static_cast<std::size_t>(std::to_chars(to, to + 24, n).ptr - to));
  };
  const auto code = number(numbers[0], static_cast<std::size_t>(status));
  const auto length = number(numbers[1], body ? body->size() : 0);
  // The head's pieces, measured first: one allocation, then copies of
  // known sizes (appending C strings cost a strlen and a capacity check
  // each, ~1.2k instructions a response).
  const std::string_view pieces[] = {"HTTP/1.1 "sv,
                                     code,
                                     " "sv,
                                     std::string_view(reason.data(), reason.size()),
                                     "\r\n"sv,
                                     content_type.empty() ? ""sv : "Content-Type: "sv,
                                     content_type,
                                     content_type.empty() ? ""sv : "\r\n"sv,
                                     "Content-Length: "sv,
                                     length,
                                     "\r\n"sv,
                                     extra_headers,
                                     connection};
  std::size_t size = 0;
  for (auto piece : pieces)
    size += piece.size();
  auto head = std::make_unique<std::string>(size, '\0');
  char* at = head->data();
  for (auto piece : pieces) {
    std::memcpy(at, piece.data(), piece.size());
    at += piece.size();
  }
  if (keep_alive_)
    read_after_write_ = true;
  else
    close_after_write_ = true;
  chunk c;
  c.text = std::move(head);
  c.body = std::move(body);
  enqueue(std::move(c));
}

void http_conn::begin_sse(const std::string& extra_headers) {
  sse_ = true;
  // A stream reads no more requests: the read's wait, if armed, goes now
  // rather than at its deadline (an idle stream keeps no timer entry).
  if (read_wait_armed_) {
    read_wait_armed_ = false;
    read_timer_.cancel();
  }
  ++loop_.counters.open_streams;
  std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                     "Cache-Control: no-cache\r\nConnection: close\r\n"
                     + extra_headers + "\r\n";
  send_text(std::move(head));
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

void http_conn::send_text(std::string text) {
  chunk c;
  c.text = std::make_unique<std::string>(std::move(text));
  enqueue(std::move(c));
}

void http_conn::send_event(std::uint64_t stream, std::uint64_t seq, frame data, followed next) {
  char head[max_event_head];
  send_event_headed(head, write_event_head(head, stream, seq), std::move(data), next);
}

void http_conn::send_event(const stream_mark& id, frame data, followed next) {
  static_assert(4 + stream_mark::max_text + 7 <= max_event_head);
  char head[max_event_head];
  char* p = head;
  std::memcpy(p, "id: ", 4);
  p += 4;
  p += id.write(p);
  std::memcpy(p, "\ndata: ", 7);
  send_event_headed(head, static_cast<std::size_t>(p + 7 - head), std::move(data), next);
}

void http_conn::send_event_headed(const char* head, std::size_t head_size, frame data, followed next) {
  if (next == followed::no && collect_event(head, head_size, data))
    return;
  chunk c;
  c.set_head(head, head_size);
  c.body = std::move(data);
  c.event = true;
  enqueue(std::move(c));
}

void http_conn::end_sse() {
  close_after_write_ = true;
  if (!writing_ && !write_scheduled_ && nothing_queued())
    finish();
}

// An SSE stream reads no more requests: the read timer is free for this.
void http_conn::end_sse_at(std::chrono::steady_clock::time_point t) {
  read_wait_armed_ = false; // this wait ends (aborted) the read's, if armed
  read_timer_.expires_at(t);
  read_timer_.async_wait([self = shared_from_this()](beast::error_code ec) {
    if (!ec && !self->closed_)
      self->end_sse();
  });
}

void http_conn::enqueue(chunk c) {
  if (closed_)
    return;
  queued_bytes_ += c.size();
  loop_.counters.queued_bytes += c.size();
  if (queued_bytes_ > loop_.limits.max_unread_bytes) {
    // This client stopped reading: it loses its connection, not anyone
    // else's delivery; what it missed stays in the stream's history.
    ++loop_.counters.dropped_slow;
    return drop();
  }
  queue_.push_back(std::move(c));
  count_unwritten(true);
  if (writing_ || write_scheduled_)
    return; // the write in flight (or about to start) takes it along
  // Start the write once the event loop has run what is already queued for
  // it: frames for this connection routed in the same turn (a burst of
  // broadcasts) then share one gathered write, and the writes of every
  // connection a broadcast reached start together. No timer: a lone frame
  // goes out on the loop's very next step.
  write_scheduled_ = true;
  loop_.writes_due.push(shared_from_this());
}

// A lone event (nothing follows it in this step) for an idle connection
// goes straight into the step's collected writes (send_ring: one
// submission for all of them): nothing is queued, so the queue, the due
// write and its gather would hand these same bytes on unchanged a step
// later (one update at a time to 500 sessions: 1,968 -> 1,667 instructions
// per delivery, callgrind). The first such event of a step is what has the
// step's writes sent: it is due, and finds itself writing already.
// Otherwise (something queued or being written, a big event, a send(2) per
// write) the event queues. Events that may be followed always queue: a
// storm's frames for one connection then leave in one write, not two.
bool http_conn::collect_event(const char* head, std::size_t head_size, const frame& body) {
  if (closed_ || writing_ || write_scheduled_ || !nothing_queued() || !loop_.sends.batched())
    return false;
  const std::size_t body_size = body ? body->size() : 0;
  const std::size_t total = head_size + body_size + event_tail.size();
  if (total > flat_write_limit || queued_bytes_ + total > loop_.limits.max_unread_bytes)
    return false;
  const ::iovec pieces[] = {{const_cast<char*>(head), head_size},
                            {const_cast<char*>(body ? body->data() : ""), body_size},
                            {const_cast<char*>(event_tail.data()), event_tail.size()}};
  const bool sends_pending = loop_.collecting || !loop_.collected.jobs.empty();
  loop_.collected.add(fd_, shared_from_this(), pieces, 3, total);
  queued_bytes_ += total;
  loop_.counters.queued_bytes += total;
  count_unwritten(true);
  writing_ = true; // sent_collected goes on
  if (!sends_pending) {
    write_scheduled_ = true;
    loop_.writes_due.push(shared_from_this());
  }
  return true;
}

void http_conn::start_due_write(std::shared_ptr<http_conn>& c) {
  c->write_scheduled_ = false;
  c->loop_.collecting = c->loop_.sends.batched(); // until send_collected
  if (!c->closed_ && !c->writing_)
    c->write_next();
}

// A broadcast's writes, one system call for all of them (send_ring.hpp).
// Each connection is "writing" until its result is in; what a result
// starts (the connection's next frames) is collected into the next round.
void http_conn::send_collected(void* l) {
  auto& loop = *static_cast<connection_loop*>(l);
  while (!loop.collected.jobs.empty()) {
    std::swap(loop.collected, loop.sending);
    auto& round = loop.sending;
    const auto n = round.jobs.size();
    for (std::size_t i = 0; i < n; ++i) {
      if (i + prefetch_distance < n) // each writer is read again: cold again past a few thousand
        prefetch_lines(round.writers[i + prefetch_distance].get(), 2);
      round.jobs[i].data = round.bytes.data() + round.starts[i];
      // Closed since (a session's end closing its other connection): its
      // descriptor may already be another's; -1 sends nothing anywhere.
      if (round.writers[i]->closed_)
        round.jobs[i].fd = -1;
    }
    loop.sends.send_all(round.jobs);
    for (std::size_t i = 0; i < n; ++i) {
      if (i + prefetch_distance < n)
        prefetch_lines(round.writers[i + prefetch_distance].get(), 2);
      round.writers[i]->sent_collected(round.jobs[i]);
    }
    round.clear();
  }
  loop.collecting = false;
}

void http_conn::sent_collected(const send_ring::job& sent) {
  writing_ = false;
  if (closed_)
    return;
  ::iovec piece{const_cast<char*>(sent.data), sent.size};
  if (after_send(sent.result, &piece, 1, sent.size))
    write_next();
}

void http_conn::write_next() {
  for (;;) {
    if (nothing_queued()) {
      writing_ = false;
      count_unwritten(false);
      if (close_after_write_)
        return finish();
      if (read_after_write_) {
        read_after_write_ = false;
        read_request();
      }
      return;
    }
    auto& gather = loop_.gather;
    gather.clear();
    std::size_t total = 0;
    auto add = [&](const char* p, std::size_t n) {
      if (n != 0) {
        gather.push_back({const_cast<char*>(p), n});
        total += n;
      }
    };
    in_flight_ = std::min(queue_.size() - queue_head_, max_chunks_per_write);
    for (std::size_t i = queue_head_; i < queue_head_ + in_flight_; ++i) {
      auto& c = queue_[i];
      if (c.text)
        add(c.text->data(), c.text->size());
      add(c.event_head.data(), c.event_head_size);
      if (c.body)
        add(c.body->data(), c.body->size());
      if (c.event)
        add(event_tail.data(), event_tail.size());
    }
    if (!write_now(total))
      return; // the rest is being written asynchronously, or the connection is gone
  }
}

// One send of everything gathered, now, or with the other writes of this
// step when they are collected (send_collected). What the kernel does not
// take is copied and written asynchronously (the connection is then
// "writing" and queues behind it). True when everything was written.
bool http_conn::write_now(std::size_t total) {
  auto& gather = loop_.gather;
  if (loop_.collecting && total <= flat_write_limit) {
    loop_.collected.add(fd_, shared_from_this(), gather.data(), gather.size(), total);
    writing_ = true;
    return false; // sent_collected goes on
  }
  ::msghdr msg{};
  msg.msg_iov = gather.data();
  msg.msg_iovlen = gather.size();
  // A small write (an event: head, frame, blank line) goes out as one
  // buffer: copying ~150 bytes costs less than the kernel's walk over three
  // (loop thread CPU per delivery -5%). What a partial write leaves is
  // still taken from the original buffers: the bytes are the same.
  ::iovec flat;
  if (gather.size() > 1 && total <= flat_write_limit) {
    auto& buf = loop_.write_buffer;
    buf.clear();
    for (auto& v : gather)
      buf.append(static_cast<const char*>(v.iov_base), v.iov_len);
    flat = {buf.data(), buf.size()};
    msg.msg_iov = &flat;
    msg.msg_iovlen = 1;
  }
  // One buffer goes by send(2): sendmsg(2) first copies the message header
  // and the vector in from user space, which is kernel time per delivery
  // that a single buffer does not need.
  ssize_t r;
  do
    r = msg.msg_iovlen == 1 ? ::send(fd_, msg.msg_iov->iov_base, msg.msg_iov->iov_len, MSG_NOSIGNAL)
                            : ::sendmsg(fd_, &msg, MSG_NOSIGNAL);
  while (r < 0 && errno == EINTR);
  return after_send(r < 0 ? -errno : static_cast<long>(r), gather.data(), gather.size(), total);
}

// What a send of `pieces` (`total` bytes) did: `result` bytes went, or it
// failed (-errno). True when everything was written.
bool http_conn::after_send(long result, const ::iovec* pieces, std::size_t count, std::size_t total) {
  if (result < 0 && result != -EAGAIN && result != -EWOULDBLOCK) {
    queue_.clear();
    queue_head_ = 0;
    finish();
    return false;
  }
  auto sent = result < 0 ? std::size_t{0} : static_cast<std::size_t>(result);
  if (sent == total) {
    written(sent);
    consume_in_flight();
    return true;
  }
  if (sent != 0)
    written(sent);
  // The rest, copied: the chunks it came from go now, and the queue may
  // grow (and move) while it is written. A full socket is a slow or busy
  // reader; the copy is what the kernel would have made of it.
  std::size_t i = 0, skip = sent;
  for (; skip >= pieces[i].iov_len; ++i)
    skip -= pieces[i].iov_len;
  unsent_.clear();
  for (; i < count; ++i, skip = 0)
    unsent_.append(static_cast<const char*>(pieces[i].iov_base) + skip, pieces[i].iov_len - skip);
  consume_in_flight();
  writing_ = true;
  auto self = shared_from_this();
  net::async_write(socket_, net::buffer(unsent_), [self](beast::error_code ec, std::size_t n) {
    self->writing_ = false;
    if (ec || self->closed_) { // closed meanwhile: the queue is no longer ours to walk
      self->queue_.clear();
      self->queue_head_ = 0;
      return self->finish();
    }
    self->written(n);
    std::string().swap(self->unsent_); // a burst's copy is not kept by an idle connection
    self->write_next();
  });
  return false;
}

// Bytes that left this process.
void http_conn::written(std::size_t bytes) {
  queued_bytes_ -= bytes;
  loop_.counters.queued_bytes -= bytes;
  last_write_ = coarse_now();
}

// The chunks the write took are done with: what they hold goes now, their
// slots when the queue empties (its storage stays for the next ones). A
// backlog that never lets it empty (a slow reader) drops the slots once
// they are half the queue: each waiting chunk moves O(1) times on average.
void http_conn::consume_in_flight() {
  auto end = queue_head_ + in_flight_;
  in_flight_ = 0;
  if (end == queue_.size()) {
    queue_.clear();
    queue_head_ = 0;
    return;
  }
  for (; queue_head_ < end; ++queue_head_) {
    queue_[queue_head_].body.reset();
    queue_[queue_head_].text.reset();
  }
  if (queue_head_ >= compact_after && queue_head_ * 2 >= queue_.size()) {
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<long>(queue_head_));
    queue_head_ = 0;
  }
}

void http_conn::drop() { finish(); }

void http_conn::count_unwritten(bool has_bytes) {
  if (has_bytes == counted_unwritten_)
    return;
  counted_unwritten_ = has_bytes;
  if (has_bytes)
    ++loop_.unwritten;
  else
    --loop_.unwritten;
}

void http_conn::finish() {
  if (closed_)
    return;
  closed_ = true;
  count_unwritten(false);
  read_timer_.cancel();
  if (sse_)
    --loop_.counters.open_streams;
  beast::error_code ec;
  socket_.shutdown(tcp::socket::shutdown_both, ec);
  socket_.close(ec);
  queue_.clear(); // an in-flight write has its own copy (unsent_)
  queue_head_ = 0;
  if (on_close) {
    auto cb = std::move(on_close);
    cb();
  }
}

} // namespace cafmcp::http

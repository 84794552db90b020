#pragma once
// An incremental text/event-stream parser (the WHATWG "event stream
// interpretation" rules a client needs): bytes in, whole events out. Pure, so
// chunk boundaries, CRLF and comments are tested without sockets.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cafmcp::client_detail {

struct sse_event {
  std::string id;      // the stream's last event id after this event ("" if none yet)
  bool has_id = false; // this event's block carried an `id:` field
  std::string event;   // the `event:` field; "" means "message"
  std::string data;    // data lines joined with '\n'
};

class sse_parser {
public:
  /// `max_event_bytes`: the most an event (its data, or any one line) may
  /// hold; past it the parser stops and overflowed() says so.
  explicit sse_parser(std::size_t max_event_bytes = static_cast<std::size_t>(-1)) : max_(max_event_bytes) {}

  /// Feeds the next bytes; every completed event (blank-line terminated)
  /// with data or an id is appended to `out`. Blocks with neither (a bare
  /// `retry:` or a comment) only update retry().
  void feed(std::string_view bytes, std::vector<sse_event>& out);

  /// The last `retry:` value in milliseconds, if the stream sent one.
  std::optional<long> retry_ms() const { return retry_ms_; }
  /// The last event id seen (the value to send as Last-Event-ID).
  const std::string& last_event_id() const { return last_id_; }
  bool has_last_event_id() const { return has_last_id_; }
  /// An event or line outgrew max_event_bytes: nothing more is parsed (the
  /// stream is the peer's mistake, not something to wait out).
  bool overflowed() const { return overflowed_; }

private:
  void line(std::string_view l, std::vector<sse_event>& out);
  void dispatch(std::vector<sse_event>& out);

  std::size_t max_;
  bool overflowed_ = false;
  std::string pending_;  // an incomplete line
  bool skip_lf_ = false; // the previous chunk ended in '\r'
  std::string data_;
  bool data_seen_ = false;
  std::string event_;
  bool id_in_block_ = false;
  std::string last_id_;
  bool has_last_id_ = false;
  std::optional<long> retry_ms_;
};

} // namespace cafmcp::client_detail

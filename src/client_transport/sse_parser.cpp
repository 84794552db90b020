#include "client_transport/sse_parser.hpp"

#include <charconv>

namespace cafmcp::client_detail {

void sse_parser::feed(std::string_view bytes, std::vector<sse_event>& out) {
  for (char c : bytes) {
    if (overflowed_)
      return;
    if (skip_lf_) {
      skip_lf_ = false;
      if (c == '\n')
        continue;
    }
    if (c == '\r' || c == '\n') {
      skip_lf_ = c == '\r';
      line(pending_, out);
      pending_.clear();
    } else {
      pending_ += c;
      if (pending_.size() + data_.size() > max_) {
        overflowed_ = true;
        pending_.clear();
        data_.clear();
      }
    }
  }
}

void sse_parser::line(std::string_view l, std::vector<sse_event>& out) {
  if (l.empty()) {
    dispatch(out);
    return;
  }
  if (l.front() == ':')
    return; // comment (keep-alive)
  auto colon = l.find(':');
  std::string_view field = l.substr(0, colon);
  std::string_view value;
  if (colon != std::string_view::npos) {
    value = l.substr(colon + 1);
    if (!value.empty() && value.front() == ' ')
      value.remove_prefix(1);
  }
  if (field == "data") {
    if (data_seen_)
      data_ += '\n';
    data_ += value;
    data_seen_ = true;
  } else if (field == "event") {
    event_ = value;
  } else if (field == "id") {
    if (value.find('\0') == std::string_view::npos) {
      last_id_ = value;
      has_last_id_ = true;
      id_in_block_ = true;
    }
  } else if (field == "retry") {
    // ASCII digits only (WHATWG): from_chars alone also reads "-1", and a
    // negative delay made every reconnect immediate.
    if (value.empty() || value.find_first_not_of("0123456789") != std::string_view::npos)
      return;
    long ms = 0;
    auto [p, ec] = std::from_chars(value.data(), value.data() + value.size(), ms);
    if (ec == std::errc())
      retry_ms_ = ms;
  }
}

void sse_parser::dispatch(std::vector<sse_event>& out) {
  if (data_seen_ || id_in_block_) {
    sse_event e;
    e.id = last_id_;
    e.has_id = id_in_block_;
    e.event = std::move(event_);
    e.data = std::move(data_);
    out.push_back(std::move(e));
  }
  data_.clear();
  data_seen_ = false;
  event_.clear();
  id_in_block_ = false;
}

} // namespace cafmcp::client_detail

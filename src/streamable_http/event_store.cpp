#include "streamable_http/event_store.hpp"

namespace cafmcp::http {
namespace {

std::size_t size_of(const frame& f) { return f ? f->size() : 0; }

} // namespace

void event_store::trim(clock::time_point now) {
  while (!events_.empty()
         && (events_.size() > max_events_ || bytes_ > max_bytes_ || now - events_.front().at > max_age_)) {
    bytes_ -= size_of(events_.front().data);
    events_.pop_front();
  }
}

std::uint64_t event_store::append(frame data, clock::time_point now, stream_mark mark) {
  auto seq = next_++;
  bytes_ += size_of(data);
  events_.push_back({seq, std::move(data), now, mark});
  trim(now);
  return seq;
}

std::optional<std::vector<event_store::event>> event_store::after(std::uint64_t seq, clock::time_point now) {
  trim(now);
  if (seq >= next_) // an id we never issued
    return std::nullopt;
  std::uint64_t oldest_kept = events_.empty() ? next_ : events_.front().seq;
  if (seq + 1 < oldest_kept) // seq+1 .. oldest_kept-1 are gone
    return std::nullopt;
  return kept_after(seq, now);
}

std::vector<event_store::event> event_store::kept_after(std::uint64_t seq, clock::time_point now) {
  trim(now);
  std::vector<event> out;
  for (auto& e : events_)
    if (e.seq > seq)
      out.push_back(e);
  return out;
}

} // namespace cafmcp::http

#include "streamable_http/event_store.hpp"

namespace cafmcp::http {

void event_store::trim(clock::time_point now) {
  while (!events_.empty()
         && (events_.size() > max_events_ || now - events_.front().at > max_age_))
    events_.pop_front();
}

std::uint64_t event_store::append(frame data, clock::time_point now) {
  auto seq = next_++;
  events_.push_back({seq, std::move(data), now});
  trim(now);
  return seq;
}

std::optional<std::vector<event_store::event>> event_store::after(std::uint64_t seq,
                                                                  clock::time_point now) {
  trim(now);
  if (seq >= next_) // an id we never issued
    return std::nullopt;
  std::uint64_t oldest_kept = events_.empty() ? next_ : events_.front().seq;
  if (seq + 1 < oldest_kept) // seq+1 .. oldest_kept-1 are gone
    return std::nullopt;
  std::vector<event> out;
  for (auto& e : events_)
    if (e.seq > seq)
      out.push_back(e);
  return out;
}

} // namespace cafmcp::http

#include "streamable_http/event_store.hpp"

#include "foundation/prefetch.hpp"

namespace cafmcp::http {
namespace {

std::size_t size_of(const frame& f) { return f ? f->size() : 0; }

// What one kept event counts against its budget.
std::size_t cost_of(const event_store::event& e) { return size_of(e.data) + sizeof(e); }

} // namespace

// The log's first slot is the oldest event of all, and its history's own
// oldest (an older one of that history would hold an earlier slot).
//
// Once the budget is full every append discards that event, and its history
// is seldom the one appending (under broadcasts, one a fixed way along the
// sessions): a history and an event far out of cache, two waits on memory
// per delivery with 10,000 sessions. The discards to come are the next
// slots', so each asks for a later slot's history and for a nearer one's
// oldest event (that history asked for a few discards before).
void history_budget::enforce() {
  constexpr std::size_t near = prefetch_distance, far = 2 * prefetch_distance;
  while (bytes() > max_bytes_ && !log_.empty()) {
    log_.front()->discard_oldest();
    ++discarded_;
    if (log_.size() > far) {
      if (auto* h = log_[far])
        prefetch_lines(h, (sizeof(event_store) + 63) / 64);
      if (auto* h = log_[near]; h && !h->events_.empty())
        prefetch_lines(&h->events_.front());
    }
  }
}

void event_store::discard_oldest() {
  auto& oldest = events_.front();
  auto cost = cost_of(oldest);
  auto order = oldest.order;
  bytes_ -= size_of(oldest.data);
  events_.pop_front();
  oldest_at_ = events_.empty() ? clock::time_point::max() : events_.front().at;
  if (budget_) {
    budget_->events_bytes_ -= cost;
    budget_->forget(order);
  }
}

void event_store::trim(clock::time_point now) {
  while (!events_.empty()
         && (events_.size() > max_events_ || bytes_ > max_bytes_ || now - oldest_at_ > max_age_))
    discard_oldest();
}

void event_store::clear() {
  while (!events_.empty()) // each empties its slot: the budget keeps no address of a history gone
    discard_oldest();
}

std::uint64_t event_store::append(frame data, clock::time_point now, stream_mark mark) {
  auto order = budget_ ? budget_->record(this) : 0;
  try {
    events_.push_back({next_, order, std::move(data), now, mark});
  } catch (...) { // out of memory: no slot may name this history without its event
    if (budget_)
      budget_->forget(order);
    throw;
  }
  auto seq = next_++;
  bytes_ += size_of(events_.back().data);
  if (events_.size() == 1)
    oldest_at_ = now;
  if (budget_)
    budget_->events_bytes_ += cost_of(events_.back());
  trim(now);
  if (budget_)
    budget_->enforce();
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

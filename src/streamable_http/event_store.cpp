#include "streamable_http/event_store.hpp"

namespace cafmcp::http {
namespace {

std::size_t size_of(const frame& f) { return f ? f->size() : 0; }

// What one kept event counts against its budget.
std::size_t cost_of(const event_store::event& e) { return size_of(e.data) + sizeof(e); }

} // namespace

// The first listing is the oldest event of all once it is current: every
// other listing is no later than its history's oldest event. A stale one
// is brought up to date when it comes first, then looked at again.
void history_budget::enforce() {
  while (bytes_ > max_bytes_ && !fronts_.empty()) {
    auto first = fronts_.begin();
    auto* history = first->second;
    if (history->events_.empty()) {
      fronts_.erase(first);
      history->listed_as_ = 0;
    } else if (auto oldest = history->events_.front().order; first->first != oldest) {
      auto node = fronts_.extract(first);
      node.value().first = history->listed_as_ = oldest;
      fronts_.insert(std::move(node));
    } else {
      history->discard_oldest();
      ++discarded_;
    }
  }
}

void event_store::discard_oldest() {
  auto& oldest = events_.front();
  bytes_ -= size_of(oldest.data);
  if (budget_)
    budget_->bytes_ -= cost_of(oldest); // its listing goes stale, and stays
  events_.pop_front();
  oldest_at_ = events_.empty() ? clock::time_point::max() : events_.front().at;
}

void event_store::trim(clock::time_point now) {
  while (!events_.empty()
         && (events_.size() > max_events_ || bytes_ > max_bytes_ || now - oldest_at_ > max_age_))
    discard_oldest();
}

void event_store::clear() {
  while (!events_.empty())
    discard_oldest();
  if (budget_ && listed_as_) { // the budget must not keep the address of a history gone
    budget_->fronts_.erase({listed_as_, this});
    listed_as_ = 0;
  }
}

std::uint64_t event_store::append(frame data, clock::time_point now, stream_mark mark) {
  auto seq = next_++;
  bytes_ += size_of(data);
  if (events_.empty())
    oldest_at_ = now;
  events_.push_back({seq, std::move(data), now, mark, budget_ ? budget_->next_order() : 0});
  if (budget_) {
    budget_->bytes_ += cost_of(events_.back());
    if (!listed_as_) // a listing kept from before is no later than this event: still true
      budget_->fronts_.emplace(listed_as_ = events_.back().order, this);
  }
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

#include "protocol/recent_log.hpp"

namespace cafmcp::protocol {
namespace {

log_mark entry_of(log_mark m) { return {m.ms, m.seq, 0}; }

} // namespace

void recent_log::add(log_mark at, log_record r) {
  r.replica = nullptr;
  entries_.emplace_back(entry_of(at), std::move(r));
  while (entries_.size() > capacity_) {
    dropped_ = entries_.front().first;
    entries_.pop_front();
  }
}

recent_log::replay recent_log::since(const std::string& id, log_mark after,
                                     const std::optional<std::pair<log_mark, session_record>>& latest,
                                     change_metadata meta) const {
  replay out;
  out.upto = after;
  auto from = entry_of(after);
  // The entry the client's last event came from must be kept (or be one
  // told in full): the entries after it are then all here.
  if (dropped_ && (from < *dropped_ || (from == *dropped_ && after.k != whole_entry)))
    return out;
  // The session's state at `after`: its last record up to there.
  session_view view;
  bool known = false;
  for (auto& [at, r] : entries_) {
    if (at > from)
      break;
    if (r.session && r.session->id == id) {
      known = true;
      view.subscriptions = r.session->record ? r.session->record->subscriptions : std::vector<std::string>{};
      view.ended = !r.session->record;
    }
  }
  if (!known && latest && entry_of(latest->first) <= from) {
    known = true; // no record of it since then
    view.subscriptions = latest->second.subscriptions;
  }
  // Nothing dropped yet: a session with no record before `after` had not
  // started, and was subscribed to nothing.
  if (!known && dropped_)
    return out;
  out.complete = true;
  for (auto& [at, r] : entries_) {
    if (at < from)
      continue;
    for (auto& t : what_entry_tells(r, id, view, meta)) {
      log_mark m{at.ms, at.seq, t.place};
      if (m > after)
        out.told.emplace_back(m, std::move(t.message));
    }
  }
  if (!entries_.empty() && entries_.back().first > from)
    out.upto = {entries_.back().first.ms, entries_.back().first.seq, whole_entry};
  return out;
}

} // namespace cafmcp::protocol

#include "protocol/subscription_index.hpp"

#include <algorithm>

namespace cafmcp::protocol {
namespace {
std::string key_of(const std::string& uri, bool is_template) { return (is_template ? "t" : "u") + uri; }
} // namespace

subscription_index::outcome subscription_index::subscribe(subscriber s, const std::string& uri,
                                                          bool is_template, std::size_t limit) {
  auto& mine = by_subscriber_[s];
  auto key = key_of(uri, is_template);
  if (mine.count(key))
    return outcome::already;
  if (mine.size() >= limit) {
    if (mine.empty())
      by_subscriber_.erase(s);
    return outcome::over_limit;
  }
  if (is_template) {
    auto it = templates_.find(uri);
    if (it == templates_.end())
      it = templates_.emplace(uri, template_subs{uri_template(uri), {}}).first;
    it->second.subs.insert(s);
  } else {
    exact_[uri].insert(s);
  }
  mine.insert(std::move(key));
  ++total_;
  return outcome::added;
}

bool subscription_index::unsubscribe(subscriber s, const std::string& uri) {
  auto mine = by_subscriber_.find(s);
  if (mine == by_subscriber_.end())
    return false;
  bool removed = false;
  // The client names a URI; it may be an exact or a template subscription.
  if (mine->second.erase(key_of(uri, false))) {
    auto it = exact_.find(uri);
    it->second.erase(s);
    if (it->second.empty())
      exact_.erase(it);
    removed = true;
    --total_;
  }
  if (mine->second.erase(key_of(uri, true))) {
    auto it = templates_.find(uri);
    it->second.subs.erase(s);
    if (it->second.subs.empty())
      templates_.erase(it);
    removed = true;
    --total_;
  }
  if (mine->second.empty())
    by_subscriber_.erase(mine);
  return removed;
}

void subscription_index::drop(subscriber s) {
  auto mine = by_subscriber_.find(s);
  if (mine == by_subscriber_.end())
    return;
  auto keys = std::move(mine->second);
  by_subscriber_.erase(mine);
  for (auto& key : keys) {
    auto uri = key.substr(1);
    if (key[0] == 't') {
      auto it = templates_.find(uri);
      it->second.subs.erase(s);
      if (it->second.subs.empty())
        templates_.erase(it);
    } else {
      auto it = exact_.find(uri);
      it->second.erase(s);
      if (it->second.empty())
        exact_.erase(it);
    }
    --total_;
  }
}

std::vector<subscription_index::subscriber> subscription_index::subscribers_of(const std::string& uri) const {
  std::vector<subscriber> out;
  if (auto it = exact_.find(uri); it != exact_.end())
    out.assign(it->second.begin(), it->second.end());
  bool merged = false;
  for (auto& [text, t] : templates_)
    if (t.compiled.match(uri)) {
      out.insert(out.end(), t.subs.begin(), t.subs.end());
      merged = true;
    }
  if (merged) { // someone may hold both an exact and a template subscription
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  }
  return out;
}

std::size_t subscription_index::count(subscriber s) const {
  auto it = by_subscriber_.find(s);
  return it == by_subscriber_.end() ? 0 : it->second.size();
}

std::vector<std::string> subscription_index::exact_uris() const {
  std::vector<std::string> uris;
  uris.reserve(exact_.size());
  for (auto& [uri, subs] : exact_)
    uris.push_back(uri);
  return uris;
}

std::vector<std::string> subscription_index::exact_uris_of(subscriber s) const {
  std::vector<std::string> uris;
  if (auto it = by_subscriber_.find(s); it != by_subscriber_.end())
    for (auto& key : it->second)
      if (key.front() == 'u')
        uris.push_back(key.substr(1));
  std::sort(uris.begin(), uris.end());
  return uris;
}

} // namespace cafmcp::protocol

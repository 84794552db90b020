#pragma once
// Who is subscribed to what, indexed both ways: uri -> subscribers for
// delivery, subscriber -> uris for O(own subscriptions) cleanup when a
// session ends. A subscription is to an exact URI, or to a registered
// template's own text, which then covers every URI that template matches.
// Subscribers are opaque numbers (session actor ids today, listen streams
// of the stateless revision tomorrow): one index for every kind.
#include <algorithm>
#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "cafmcp/uri_template.hpp"

namespace cafmcp::protocol {

class subscription_index {
public:
  using subscriber = std::uint64_t;
  enum class outcome { added, already, over_limit };

  outcome subscribe(subscriber s, const std::string& uri, bool is_template, std::size_t limit);
  /// Idempotent: true when something was removed.
  bool unsubscribe(subscriber s, const std::string& uri);
  /// Removes every subscription of `s`.
  void drop(subscriber s);

  /// Everyone to tell that `uri` changed: exact subscribers and subscribers
  /// of every template matching it, each once.
  std::vector<subscriber> subscribers_of(const std::string& uri) const;

  /// Every URI with an exact subscriber (what a resync re-announces).
  std::vector<std::string> exact_uris() const;
  /// The exact URIs `s` subscribed to, sorted.
  std::vector<std::string> exact_uris_of(subscriber s) const;

  std::size_t subscriptions() const noexcept { return total_; }
  std::size_t subscribed_uris() const noexcept { return exact_.size() + templates_.size(); }
  std::size_t count(subscriber s) const;

private:
  // Sorted and contiguous: a broadcast walks it in one pass (an
  // unordered_set cost a cache miss per node: 5% of the notifier's time in
  // a storm). Subscribing and unsubscribing shift at most a few thousand
  // ids; ids grow, so a new subscriber usually lands at the end.
  class subscriber_set {
  public:
    void insert(subscriber s) {
      auto it = std::lower_bound(ids_.begin(), ids_.end(), s);
      if (it == ids_.end() || *it != s)
        ids_.insert(it, s);
    }
    void erase(subscriber s) {
      auto it = std::lower_bound(ids_.begin(), ids_.end(), s);
      if (it != ids_.end() && *it == s)
        ids_.erase(it);
    }
    bool empty() const { return ids_.empty(); }
    auto begin() const { return ids_.begin(); }
    auto end() const { return ids_.end(); }

  private:
    std::vector<subscriber> ids_;
  };
  struct template_subs {
    uri_template compiled;
    subscriber_set subs;
  };
  std::unordered_map<std::string, subscriber_set> exact_;
  std::map<std::string, template_subs> templates_;
  // Each subscriber's keys, with the template ones marked by a leading 't'.
  std::unordered_map<subscriber, std::unordered_set<std::string>> by_subscriber_;
  std::size_t total_ = 0;
};

} // namespace cafmcp::protocol

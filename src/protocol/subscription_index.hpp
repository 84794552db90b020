#pragma once
// Who is subscribed to what, indexed both ways: uri -> subscribers for
// delivery, subscriber -> uris for O(own subscriptions) cleanup when a
// session ends. A subscription is to an exact URI, or to a registered
// template's own text, which then covers every URI that template matches.
// Subscribers are opaque numbers (session actor ids today, listen streams
// of the stateless revision tomorrow): one index for every kind.
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

  std::size_t subscriptions() const noexcept { return total_; }
  std::size_t subscribed_uris() const noexcept { return exact_.size() + templates_.size(); }
  std::size_t count(subscriber s) const;

private:
  struct template_subs {
    uri_template compiled;
    std::unordered_set<subscriber> subs;
  };
  std::unordered_map<std::string, std::unordered_set<subscriber>> exact_;
  std::map<std::string, template_subs> templates_;
  // Each subscriber's keys, with the template ones marked by a leading 't'.
  std::unordered_map<subscriber, std::unordered_set<std::string>> by_subscriber_;
  std::size_t total_ = 0;
};

} // namespace cafmcp::protocol

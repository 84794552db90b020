#pragma once
// The client's copy of one descriptor list, and cafmcp's operation metadata
// on list_changed (which lets the copy be patched without a reload).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cafmcp/json.hpp"

#include "client/list_kind.hpp"

namespace cafmcp::client_core {

class descriptor_list {
public:
  explicit descriptor_list(list_kind k) : kind_(k) {}

  /// A freshly listed copy replaces this one; the keys that left.
  std::vector<std::string> replace(std::vector<json> fresh);
  /// added / updated: inserted or replaced by key; removed: erased. The
  /// key that left, when one did.
  std::optional<std::string> apply(std::string_view operation, const std::string& key,
                                   const json& descriptor);

  const std::vector<json>& items() const { return items_; }
  bool contains(const std::string& key) const;

private:
  std::string key_of(const json& d) const;
  list_kind kind_;
  std::vector<json> items_;
};

/// One change as cafmcp describes it on a list_changed notification, in
/// `params` or in `params._meta["io.cafmcp/change"]`.
struct list_change {
  list_kind kind;
  std::string operation; // added | removed | updated
  std::string key;       // name, uri or uriTemplate
  json descriptor;
};

/// nullopt when `params` carries no (well-formed) operation metadata: then
/// the list is reloaded instead.
std::optional<list_change> parse_list_change(std::string_view method, const json& params);

/// The lists a `notifications/<x>/list_changed` method concerns.
std::vector<list_kind> lists_for(std::string_view method);

} // namespace cafmcp::client_core

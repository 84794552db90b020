#pragma once
// Taking a small JSON tree apart from the leaves up before it is destroyed.
//
// nlohmann destroys every non-empty object or array through a heap stack
// of its children (so that a deep tree cannot overflow the call stack): an
// allocation, a move of each child, and the same again for each container
// inside. A request's params and a tool's result are a few levels deep and
// destroyed on every call. Emptied here from the bottom up, by recursion
// bounded by `levels`, each container reaches nlohmann empty and is freed
// as it is; what lies deeper than `levels` is left to nlohmann's stack.
// A tools/call with 16 clients (callgrind): 32,601 -> 31,429 instructions,
// its result ({content: [{type, text}]}) and its params taken apart so.
#include "cafmcp/json.hpp"

namespace cafmcp {

inline constexpr int json_dismantle_levels = 8;

inline void dismantle(json& j, int levels = json_dismantle_levels) {
  if (levels == 0)
    return;
  if (j.is_object()) {
    auto& members = j.get_ref<json::object_t&>();
    for (auto& member : members)
      dismantle(member.second, levels - 1);
    members.clear();
  } else if (j.is_array()) {
    auto& items = j.get_ref<json::array_t&>();
    for (auto& item : items)
      dismantle(item, levels - 1);
    items.clear();
  }
}

} // namespace cafmcp

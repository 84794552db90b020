#pragma once
// Opaque list cursors. A cursor names the last key a page returned, so the
// next page starts strictly after it: stable under concurrent additions and
// removals (nothing that existed throughout is skipped or repeated), and no
// server-side state per client. The list kind is part of the cursor, so a
// tools cursor handed to resources/list is refused (-32602).
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "cafmcp/json.hpp"
#include "cafmcp/json_rpc.hpp"

namespace cafmcp::protocol {

std::string encode_cursor(std::string_view kind, std::string_view last_key);
/// The last key, or nullopt when the cursor is not one of ours for `kind`.
std::optional<std::string> decode_cursor(std::string_view kind, std::string_view cursor);

/// One page of `items` as `{<field>: [...], nextCursor?}`; an error when
/// params carry a bad cursor. `describe(value) -> json`.
/// Items for which `visible(value)` is false are left out (they do not
/// count towards the page).
template <class Map, class Describe, class Visible>
std::variant<json, jsonrpc::error> page(const Map& items, std::string_view kind, std::string_view field,
                                        const json& params, std::size_t page_size, Describe describe,
                                        Visible visible) {
  auto it = items.begin();
  if (params.is_object() && params.contains("cursor")) {
    const auto& c = params["cursor"];
    std::optional<std::string> last;
    if (c.is_string())
      last = decode_cursor(kind, c.get<std::string>());
    if (!last)
      return jsonrpc::error{jsonrpc::code::invalid_params, "Invalid cursor", std::nullopt};
    it = items.upper_bound(*last);
  }
  json list = json::array();
  std::string last_key;
  for (; it != items.end() && list.size() < page_size; ++it) {
    if (!visible(it->second))
      continue;
    list.push_back(describe(it->second));
    last_key = it->first;
  }
  json result = {{std::string(field), std::move(list)}};
  if (it != items.end())
    result["nextCursor"] = encode_cursor(kind, last_key);
  return result;
}

template <class Map, class Describe>
std::variant<json, jsonrpc::error> page(const Map& items, std::string_view kind, std::string_view field,
                                        const json& params, std::size_t page_size, Describe describe) {
  return page(items, kind, field, params, page_size, describe, [](const auto&) { return true; });
}

} // namespace cafmcp::protocol

// Opaque cursors: stable under mutation, scoped to their list.
#include <map>

#include <gtest/gtest.h>

#include "protocol/pagination.hpp"

namespace cafmcp::protocol {
namespace {

TEST(Pagination, CursorsRoundTripAndAreScopedToTheirList) {
  auto c = encode_cursor("tools", "weird key / with spaces");
  EXPECT_EQ(decode_cursor("tools", c), "weird key / with spaces");
  EXPECT_FALSE(decode_cursor("prompts", c));
  EXPECT_FALSE(decode_cursor("tools", "%%%"));
}

TEST(Pagination, PagesResumeAfterTheLastKeyEvenWhenItWasRemoved) {
  std::map<std::string, int> items = {{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}};
  auto describe = [](int v) { return json(v); };
  auto first = std::get<json>(page(items, "k", "items", json::object(), 2, describe));
  EXPECT_EQ(first["items"], (json{1, 2}));
  items.erase("b");
  items["a2"] = 9; // sorts before the cursor: belongs to a page already seen
  auto second = std::get<json>(page(items, "k", "items", {{"cursor", first["nextCursor"]}}, 2, describe));
  EXPECT_EQ(second["items"], (json{3, 4}));
  EXPECT_FALSE(second.contains("nextCursor"));
}

TEST(Pagination, ABadCursorIsInvalidParams) {
  std::map<std::string, int> items = {{"a", 1}};
  auto r = page(items, "k", "items", {{"cursor", 5}}, 2, [](int v) { return json(v); });
  ASSERT_TRUE(std::holds_alternative<jsonrpc::error>(r));
  EXPECT_EQ(std::get<jsonrpc::error>(r).code, jsonrpc::code::invalid_params);
}

} // namespace
} // namespace cafmcp::protocol

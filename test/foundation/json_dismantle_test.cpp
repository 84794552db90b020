// dismantle (json_dismantle.hpp): a shallow tree is emptied from the leaves
// up; one deeper than its levels is left, past them, to nlohmann's own
// destruction, which a deep tree cannot overflow the stack of.
#include <gtest/gtest.h>

#include "foundation/json_dismantle.hpp"

namespace cafmcp {
namespace {

TEST(JsonDismantle, EmptiesAShallowTreeFromTheLeavesUp) {
  json result = {{"content", json::array({{{"type", "text"}, {"text", "hello"}}})}, {"isError", false}};
  auto& content = result["content"];
  dismantle(content[0]);
  EXPECT_EQ(content, json::array({json::object()}));
  dismantle(result);
  EXPECT_EQ(result, json::object());
  json leaf = "text";
  dismantle(leaf);
  EXPECT_EQ(leaf, "text"); // a leaf is nlohmann's to free
}

TEST(JsonDismantle, LeavesWhatLiesPastItsLevelsToNlohmann) {
  auto nested = [](int depth) {
    json top = json::array();
    json* inner = &top;
    for (int i = 0; i < depth; ++i) {
      inner->push_back(json::array());
      inner = &(*inner)[0];
    }
    inner->push_back(42);
    return top;
  };
  json shallow = nested(3);
  dismantle(shallow[0], 1); // one level: its child is let go whole, by nlohmann
  EXPECT_EQ(shallow, json::array({json::array()}));
  json deep = nested(100000); // deeper than a call stack would take by recursion
  dismantle(deep);
  EXPECT_EQ(deep, json::array());
}

} // namespace
} // namespace cafmcp

// A tools/call is served on its session's actor, from the session's copy of
// the server's tools (actors/published_tools.hpp): the server actor is not
// in its path, and the copy is never older than a change the client could
// have heard of.
#include <memory>

#include "actors/messages.hpp"
#include "actors/published_tools.hpp"
#include "actors/server_access.hpp"
#include "protocol/mutation.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

json call(in_process_client& c, const std::string& name, const std::string& text = "x") {
  return c.request("tools/call", {{"name", name}, {"arguments", {{"text", text}}}});
}

std::string text_of(const json& response) {
  if (!response.contains("result"))
    return response.dump(); // the test's comparison shows what came instead
  return response["result"]["content"][0]["text"].get<std::string>();
}

tool saying(std::string name, std::string said) {
  tool t = echo_tool(std::move(name));
  t.quick = true;
  t.handler = [said = std::move(said)](const json&, request_context&) { return tool_result::text(said); };
  return t;
}

// Holds the server actor in a mutation of its own until released, however
// the test ends.
class busy_server_actor {
public:
  explicit busy_server_actor(server& srv) {
    actors::mutation busy{"hold the server actor",
                          [inside = inside_, left = leave_.get_future().share()](protocol::registry&) {
                            inside->set_value();
                            left.wait();
                            return protocol::mutation_effect{};
                          },
                          nullptr,
                          {}};
    caf::anon_send(server_access::of(srv).rt->server(), actors::mutate_atom::value, std::move(busy));
  }
  ~busy_server_actor() { release(); }
  busy_server_actor(const busy_server_actor&) = delete;
  busy_server_actor& operator=(const busy_server_actor&) = delete;

  bool entered() { return inside_->get_future().wait_for(10s) == std::future_status::ready; }
  void release() {
    if (!released_)
      leave_.set_value();
    released_ = true;
  }

private:
  std::shared_ptr<std::promise<void>> inside_ = std::make_shared<std::promise<void>>();
  std::promise<void> leave_;
  bool released_ = false;
};

TEST(ToolCallsOnTheSession, AreAnsweredWhileTheServerActorIsBusy) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(saying("quick", "from the session"))));
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("threaded"))));
  in_process_client c(srv);
  c.initialize();
  // The first call goes through the server actor, which makes the copy.
  EXPECT_EQ(text_of(call(c, "quick")), "from the session");
  busy_server_actor busy(srv);
  ASSERT_TRUE(busy.entered());
  EXPECT_EQ(text_of(call(c, "quick")), "from the session");
  EXPECT_EQ(text_of(call(c, "threaded", "on a worker")), "on a worker");
  auto unknown = call(c, "no_such_tool");
  EXPECT_EQ(unknown["error"]["code"], -32602) << unknown.dump();
  auto invalid = c.request("tools/call", {{"name", "threaded"}, {"arguments", {{"text", 7}}}});
  EXPECT_EQ(invalid["result"]["isError"], true) << invalid.dump();
  busy.release();
  EXPECT_TRUE(c.request("tools/list").contains("result"));
}

// Each change is followed by a call that must see it: the replacement of a
// handler under the same descriptor (no notification says so), a removal,
// an addition. The session held a current copy before each.
TEST(ToolCallsOnTheSession, SeeEveryChangeToTheToolsMadeBeforeThem) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(saying("t", "one"))));
  in_process_client c(srv);
  c.initialize();
  EXPECT_EQ(text_of(call(c, "t")), "one");
  EXPECT_EQ(text_of(call(c, "t")), "one");
  ASSERT_TRUE(applied(srv.add_tool(saying("t", "two"))));
  EXPECT_EQ(text_of(call(c, "t")), "two");
  EXPECT_EQ(text_of(call(c, "t")), "two");
  ASSERT_TRUE(applied(srv.remove_tool("t")));
  auto gone = call(c, "t");
  EXPECT_EQ(gone["error"]["code"], -32602) << gone.dump();
  ASSERT_TRUE(applied(srv.add_tool(saying("t", "three"))));
  EXPECT_EQ(text_of(call(c, "t")), "three");
  ASSERT_TRUE(applied(srv.add_tool(saying("u", "new"))));
  EXPECT_EQ(text_of(call(c, "u")), "new");
  EXPECT_EQ(text_of(call(c, "t")), "three");
}

TEST(PublishedTools, AnEditionIsCurrentUntilTheToolsChange) {
  protocol::registry reg;
  actors::published_tools published;
  std::shared_ptr<const actors::published_tools::edition> mine;
  EXPECT_EQ(published.current(mine), nullptr); // none made yet: the long way
  published.refresh(reg);
  auto* first = published.current(mine);
  ASSERT_NE(first, nullptr);
  EXPECT_TRUE(first->tools.empty());
  ASSERT_TRUE(protocol::add_tool(reg, echo_tool("t")).applied);
  published.follow(reg);
  EXPECT_EQ(published.current(mine), nullptr); // stale: the long way, until the server actor refreshes
  published.refresh(reg);
  auto* second = published.current(mine);
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->tools.count("t"), 1u);
  EXPECT_EQ(published.current(mine), second); // kept by the reader: no copy per call
  published.refresh(reg);
  EXPECT_EQ(published.current(mine), second); // nothing changed: no new edition
  ASSERT_FALSE(protocol::remove_tool(reg, "absent").applied);
  published.follow(reg);
  EXPECT_EQ(published.current(mine), second); // a refused change changes nothing
  ASSERT_TRUE(protocol::remove_tool(reg, "t").applied);
  published.follow(reg);
  EXPECT_EQ(published.current(mine), nullptr);
  std::shared_ptr<const actors::published_tools::edition> another_reader;
  EXPECT_EQ(published.current(another_reader), nullptr);
}

} // namespace
} // namespace cafmcp::test

// The notifier serializes each notification once and hands the very same
// bytes to every session; a connection that cannot take more is ended
// without holding up the others.
#include <mutex>
#include <set>

#include "actors/messages.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

// A transport that records the frames it is handed (pointer identity
// included) and can refuse them, like a full socket buffer.
struct recording_outbound : outbound {
  std::mutex mtx;
  std::vector<frame> frames;
  bool refuse = false;
  bool closed = false;
  bool send(frame f, const routing&) override {
    std::lock_guard<std::mutex> g(mtx);
    if (refuse)
      return false;
    frames.push_back(std::move(f));
    return true;
  }
  void close() override {
    std::lock_guard<std::mutex> g(mtx);
    closed = true;
  }
  std::vector<frame> matching(const std::string& needle) {
    std::lock_guard<std::mutex> g(mtx);
    std::vector<frame> out;
    for (auto& f : frames)
      if (f->find(needle) != std::string::npos)
        out.push_back(f);
    return out;
  }
};

void initialize(connection& conn) {
  conn.receive(
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"r","version":"1"}}})");
  conn.receive(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
}

TEST(Broadcast, OneSerializationSharedByEverySession) {
  server srv(all_on());
  std::vector<std::shared_ptr<recording_outbound>> outs;
  std::vector<std::shared_ptr<connection>> conns;
  in_process_client probe(srv); // initialize() waits until it is operating
  for (int i = 0; i < 20; ++i) {
    outs.push_back(std::make_shared<recording_outbound>());
    conns.push_back(srv.connect(outs.back()));
    initialize(*conns.back());
  }
  probe.initialize();
  ASSERT_TRUE(eventually(srv, probe, [](const server_stats& s) { return s.sessions == 21; }));
  auto before = srv.stats();
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  auto after = srv.stats();
  EXPECT_EQ(after.broadcasts - before.broadcasts, 1u);
  EXPECT_EQ(after.deliveries - before.deliveries, 21u);
  std::set<const std::string*> distinct;
  for (auto& o : outs) {
    auto got = o->matching("tools/list_changed");
    ASSERT_EQ(got.size(), 1u);
    distinct.insert(got[0].get());
  }
  EXPECT_EQ(distinct.size(), 1u) << "every session must get the same buffer";
}

TEST(Broadcast, AConnectionThatRefusesIsEndedAndOthersStillReceive) {
  server srv(all_on());
  auto stuck = std::make_shared<recording_outbound>();
  auto conn = srv.connect(stuck);
  initialize(*conn);
  in_process_client healthy(srv);
  healthy.initialize();
  ASSERT_TRUE(eventually(srv, healthy, [](const server_stats& s) { return s.sessions == 2; }));
  {
    std::lock_guard<std::mutex> g(stuck->mtx);
    stuck->refuse = true;
  }
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("a"))));
  EXPECT_TRUE(healthy.wait_for_method("notifications/tools/list_changed"));
  EXPECT_TRUE(eventually(srv, healthy, [](const server_stats& s) { return s.sessions == 1; }));
  std::lock_guard<std::mutex> g(stuck->mtx);
  EXPECT_TRUE(stuck->closed);
}

// A mutation's future resolves once its notifications have been handed to
// every session: nothing further to wait for, no notifier round trip.
TEST(Broadcast, AMutationsFutureResolvesOnceEverySessionHasItsNotifications) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://watched", "watched", "v1"))));
  std::vector<std::shared_ptr<recording_outbound>> outs;
  std::vector<std::shared_ptr<connection>> conns;
  in_process_client probe(srv);
  for (int i = 0; i < 200; ++i) {
    outs.push_back(std::make_shared<recording_outbound>());
    conns.push_back(srv.connect(outs.back()));
    initialize(*conns.back());
  }
  probe.initialize();
  std::vector<std::unique_ptr<in_process_client>> subscribers;
  for (int i = 0; i < 50; ++i) {
    subscribers.push_back(std::make_unique<in_process_client>(srv));
    subscribers.back()->initialize();
    subscribers.back()->request("resources/subscribe", {{"uri", "mem://watched"}});
  }
  ASSERT_TRUE(eventually(srv, probe, [](const server_stats& s) { return s.sessions == 251; }));
  for (int round = 0; round < 3; ++round) {
    auto name = "tool_" + std::to_string(round);
    ASSERT_TRUE(applied(srv.add_tool(echo_tool(name))));
    for (auto& o : outs)
      ASSERT_EQ(o->matching("\"" + name + "\"").size(), 1u) << "round " << round;
    ASSERT_TRUE(applied(srv.set_resource_contents(
      "mem://watched",
      {resource_contents::make_text("mem://watched", "v" + std::to_string(round + 2), "text/plain")})));
    for (auto& c : subscribers)
      ASSERT_EQ(c->take([](const json& m) { return is_method(m, "notifications/resources/updated"); }).size(),
                1u)
        << "round " << round;
  }
}

// What the notifier holds until its broadcasts are out: dropped unhandled
// (a notifier being restarted loses its mailbox), it still settles, so no
// caller waits forever.
TEST(Broadcast, AMutationsSettlementSettlesWhenLetGoUnhandled) {
  std::promise<bool> done;
  auto future = done.get_future();
  auto held = std::make_shared<actors::settlement>(std::make_shared<actors::mutation_end>(std::move(done)), true);
  auto copy = held;
  held.reset();
  EXPECT_EQ(future.wait_for(0s), std::future_status::timeout) << "settled while still held";
  copy.reset();
  ASSERT_EQ(future.wait_for(0s), std::future_status::ready);
  EXPECT_TRUE(future.get());
}

} // namespace
} // namespace cafmcp::test

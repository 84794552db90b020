// Many idle sessions on one process: every one of 1,000 open GET streams
// receives a broadcast. Delivery is asserted, not timed.
#include <sys/resource.h>

#include "http_fixture.hpp"

namespace cafmcp::test {
namespace {

TEST_F(HttpTest, AThousandIdleStreamsAllReceiveOneBroadcast) {
  rlimit lim{};
  ::getrlimit(RLIMIT_NOFILE, &lim);
  lim.rlim_cur = std::min<rlim_t>(lim.rlim_max, 8192);
  ::setrlimit(RLIMIT_NOFILE, &lim);
  ASSERT_GE(lim.rlim_cur, 2200u) << "needs file descriptors for both ends of 1,000 connections";

  constexpr int n = 1000;
  std::vector<open_session> sessions;
  sessions.reserve(n);
  for (int i = 0; i < n; ++i) {
    auto s = initialize();
    // The same keep-alive connection turns into the session's GET stream.
    s.conn->send("GET", "", {{"Mcp-Session-Id", s.id}});
    ASSERT_EQ(s.conn->read_reply().status, 200);
    sessions.push_back(std::move(s));
  }
  EXPECT_EQ(transport->stats().sessions, static_cast<std::size_t>(n));
  EXPECT_EQ(srv->stats().sessions, static_cast<std::size_t>(n));
  srv->add_tool(text_tool("broadcast")).get();
  int got = 0;
  for (auto& s : sessions) {
    auto e = s.conn->next_event();
    if (e && json::parse(e->data)["params"]["name"] == "broadcast")
      ++got;
  }
  EXPECT_EQ(got, n);
}

} // namespace
} // namespace cafmcp::test

// The stdio client transport against real processes: the everything-server
// for round trips, small shell commands for exits and stderr.
#include <csignal>

#include <gtest/gtest.h>

#include "cafmcp/command_line.hpp"
#include "cafmcp/stdio_client_transport.hpp"

#include "support.hpp"

namespace cafmcp::test {
namespace {

stdio_client_options everything_stdio() {
  stdio_client_options o;
  o.argv = {bin("everything-server"), "--stdio"};
  o.child_stderr = stdio_client_options::stderr_mode::discard;
  return o;
}

TEST(StdioClientTransport, RoundTripsAndCloseReapsTheChild) {
  recorder r;
  auto t = make_stdio_client_transport(everything_stdio());
  t->start(r.handlers());
  auto init = handshake(*t, r);
  EXPECT_EQ(init["serverInfo"]["name"], "cafmcp-everything-server");
  // Several requests in flight at once, answered by id.
  for (int i = 10; i < 20; ++i)
    ASSERT_TRUE(t->send(request(i, "ping")));
  for (int i = 10; i < 20; ++i) {
    auto res = r.response(i);
    ASSERT_TRUE(res) << i;
    EXPECT_EQ((*res)["result"], json::object());
  }
  // A pretty-printed message still goes out as one line.
  t->send(json::parse(call_tool(30, "add_tool", {{"name", "stdio_added"}})).dump(2));
  ASSERT_TRUE(r.response(30));
  EXPECT_TRUE(
    r.wait_for([](const json& m) { return m.value("method", "") == "notifications/tools/list_changed"; }));
  t->close();
  auto reason = r.wait_closed();
  ASSERT_TRUE(reason);
  EXPECT_EQ(t->exit_status(), "exit 0") << *reason; // it saw EOF on stdin and left by itself
  EXPECT_FALSE(t->send(request(40, "ping")));
  EXPECT_EQ(r.closed_count(), 1);
}

TEST(StdioClientTransport, ChildExitReportsClosed) {
  recorder r;
  stdio_client_options o;
  o.argv = {"sh", "-c", "printf '{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\"}\\n'; exit 3"};
  auto t = make_stdio_client_transport(o);
  t->start(r.handlers());
  auto reason = r.wait_closed();
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("exit 3"), std::string::npos) << *reason;
  EXPECT_EQ(r.count([](const json& m) { return m.value("method", "") == "notifications/message"; }), 1u);
}

TEST(StdioClientTransport, KilledServerReportsClosedAndSendFails) {
  recorder r;
  auto t = make_stdio_client_transport(everything_stdio());
  t->start(r.handlers());
  handshake(*t, r);
  ::kill(t->pid(), SIGKILL);
  auto reason = r.wait_closed();
  ASSERT_TRUE(reason);
  EXPECT_NE(reason->find("signal 9"), std::string::npos) << *reason;
  EXPECT_FALSE(t->send(request(2, "ping")));
}

TEST(StdioClientTransport, ChildIgnoringStdinEofIsTerminated) {
  recorder r;
  stdio_client_options o;
  // Ignores stdin's EOF and SIGTERM alike: only SIGKILL ends it. It says
  // so once the trap is set: a SIGTERM before that would end it (however
  // slowly the shell starts on a busy machine).
  o.argv = {"sh", "-c",
            "trap '' TERM; printf '{\"jsonrpc\":\"2.0\",\"method\":\"trapped\"}\\n'; "
            "while :; do sleep 1; done"};
  o.close_grace = std::chrono::milliseconds(200);
  auto t = make_stdio_client_transport(o);
  t->start(r.handlers());
  ASSERT_TRUE(r.wait_for([](const json& m) { return m.value("method", "") == "trapped"; }));
  t->close(); // bounded: grace, SIGTERM, grace, SIGKILL
  auto reason = r.wait_closed();
  ASSERT_TRUE(reason);
  EXPECT_EQ(t->exit_status(), "signal 9") << *reason;
}

TEST(StdioClientTransport, StderrCapturedLineByLine) {
  recorder r;
  std::mutex mtx;
  std::vector<std::string> lines;
  stdio_client_options o;
  o.argv = {"sh", "-c", "echo first >&2; echo second >&2"};
  o.child_stderr = stdio_client_options::stderr_mode::capture;
  o.on_stderr_line = [&](std::string l) {
    std::lock_guard<std::mutex> g(mtx);
    lines.push_back(std::move(l));
  };
  {
    auto t = make_stdio_client_transport(o);
    t->start(r.handlers());
    ASSERT_TRUE(r.wait_closed());
  } // the destructor joins the stderr reader: every line is in
  EXPECT_EQ(lines, (std::vector<std::string>{"first", "second"}));
}

TEST(StdioClientTransport, UnstartableCommandThrows) {
  stdio_client_options o;
  o.argv = {"/nonexistent/cafmcp-no-such-server"};
  EXPECT_THROW(make_stdio_client_transport(o), std::system_error);
}

TEST(SplitCommandLine, QuotesAndEscapes) {
  EXPECT_EQ(split_command_line("node  server.mjs --stdio"),
            (std::vector<std::string>{"node", "server.mjs", "--stdio"}));
  EXPECT_EQ(split_command_line(R"(a 'b c' "d \"e\"" f\ g)"),
            (std::vector<std::string>{"a", "b c", "d \"e\"", "f g"}));
  EXPECT_TRUE(split_command_line("   ").empty());
}

} // namespace
} // namespace cafmcp::test

// cafmcp-check, the real binary, judging real servers: the everything-server
// (it must pass everything it can be asked) and a server on the official
// TypeScript SDK (bench/peers/ts), whose exact passes and failures are
// asserted — the checker judges servers it did not come from.
#include <filesystem>
#include <map>

#include <cstdlib>

#include <gtest/gtest.h>

#include "support.hpp"

namespace cafmcp::test {
namespace {

struct check_run {
  std::string exit; // "exit 0", "exit 1"
  json report;
  std::map<std::string, std::string> status; // check id -> PASS/FAIL/SKIP/INFO
};

check_run run_checker(std::vector<std::string> args) {
  args.insert(args.begin(), bin("cafmcp-check"));
  args.push_back("--json"); // default timeouts: a passing check returns as soon as it sees its message
  client_detail::child_process p(args, client_detail::child_stderr::inherit);
  p.close_stdin();
  std::string out;
  char buf[65536];
  for (ssize_t n; (n = ::read(p.stdout_fd(), buf, sizeof buf)) > 0;)
    out.append(buf, static_cast<std::size_t>(n));
  check_run r;
  r.exit = p.reap();
  r.report = json::parse(out);
  for (auto& c : r.report["checks"])
    r.status[c["id"]] = c["status"];
  return r;
}

using verdicts = std::map<std::string, std::string>;

// What the everything-server gets on each transport: every check it can be
// asked passes; only the changes its fixture cannot drive (a tool or prompt
// descriptor update) and, over stdio, the multi-session/stream checks skip.
verdicts everything_expected(bool http) {
  verdicts v = {{"capabilities.declared", "PASS"},
                {"lifecycle.nothing-before-initialized", "PASS"},
                {"tools.list_changed.added", "PASS"},
                {"tools.list_changed.updated", "SKIP"},
                {"tools.list_changed.removed", "PASS"},
                {"prompts.list_changed.added", "PASS"},
                {"prompts.list_changed.updated", "SKIP"},
                {"prompts.list_changed.removed", "PASS"},
                {"resources.list_changed.added", "PASS"},
                {"resources.list_changed.updated", "PASS"},
                {"resources.list_changed.removed", "PASS"},
                {"resources.subscribe.unknown-uri", "PASS"},
                {"resources.updated.delivered", "PASS"},
                {"resources.updated.only-subscribers", "PASS"},
                {"resources.unsubscribe.stops", "PASS"},
                {"sessions.ended-session-isolated", http ? "PASS" : "SKIP"},
                {"streams.resumption-replays-missed", http ? "PASS" : "SKIP"},
                {"notifications.shape", "PASS"},
                {"cafmcp.operation-metadata", "PASS"}};
  // Tasks (2025-11-25): the first tool that allows one without arguments.
  for (auto id : {"tasks.create", "tasks.get", "tasks.list", "tasks.result", "tasks.unknown-id",
                  "tasks.cancel-terminal"})
    v[id] = "PASS";
  if (http) // served without a token: not protected, which MCP allows
    v["auth.challenge"] = "INFO";
  return v;
}

// A server that declares no tasks: those checks skip.
verdicts without_tasks(verdicts v) {
  for (auto& [id, status] : v)
    if (id.rfind("tasks.", 0) == 0)
      status = "SKIP";
  return v;
}

// The TypeScript SDK peer, plain SDK usage: it announces changes correctly
// and keeps subscriptions per session, but it (1) sends list_changed to a
// session that has not said `initialized`, (2) accepts subscriptions to
// uris it does not have, (3) has no event store, so a dropped GET stream
// loses what happened meanwhile, and (4) sends no operation metadata.
verdicts ts_peer_expected(bool http) {
  auto v = without_tasks(everything_expected(http));
  v["lifecycle.nothing-before-initialized"] = "FAIL";
  v["resources.subscribe.unknown-uri"] = "FAIL";
  if (http)
    v["streams.resumption-replays-missed"] = "FAIL";
  v["cafmcp.operation-metadata"] = "INFO";
  return v;
}

TEST(CafmcpCheck, EverythingServerOverStdioPasses) {
  auto r = run_checker({"--stdio", bin("everything-server") + " --stdio"});
  EXPECT_EQ(r.status, everything_expected(false)) << r.report.dump(2);
  EXPECT_EQ(r.exit, "exit 0");
  EXPECT_EQ(r.report["transport"], "stdio");
  EXPECT_EQ(r.report["summary"]["fail"], 0);
  for (auto& c : r.report["checks"])
    EXPECT_FALSE(c["spec"].get<std::string>().empty()) << c["id"];
}

TEST(CafmcpCheck, EverythingServerOverHttpPasses) {
  http_server_process server({bin("everything-server"), "--http", "--port", "0"});
  auto r = run_checker({"--url", server.url()});
  EXPECT_EQ(r.status, everything_expected(true)) << r.report.dump(2);
  EXPECT_EQ(r.exit, "exit 0");
  EXPECT_EQ(r.report["transport"], "streamable-http");
}

TEST(CafmcpCheck, DisabledMutationsSkipTheirChecks) {
  auto r = run_checker(
    {"--stdio", bin("everything-server") + " --stdio", "--add-prompt", "", "--remove-prompt", ""});
  EXPECT_EQ(r.status["prompts.list_changed.added"], "SKIP");
  EXPECT_EQ(r.status["prompts.list_changed.removed"], "SKIP");
  EXPECT_EQ(r.status["tools.list_changed.added"], "PASS");
  EXPECT_EQ(r.exit, "exit 0");
}

TEST(CafmcpCheck, UnreachableServerExitsTwo) {
  auto r = run_checker({"--url", "http://127.0.0.1:1/mcp"});
  EXPECT_EQ(r.exit, "exit 2");
  EXPECT_EQ(r.status["capabilities.declared"], "FAIL");
  EXPECT_EQ(r.status["auth.challenge"], "SKIP");
}

// A server that wants a token it will not get: the authorization surface
// is judged (a static token has no metadata to point at: FAIL), and the
// checker, refused, cannot go on.
TEST(CafmcpCheck, AProtectedServerIsJudgedForItsChallenge) {
  ::setenv("CAFMCP_HTTP_TOKEN", "s3cret", 1);
  http_server_process server({bin("everything-server"), "--http", "--port", "0"});
  ::unsetenv("CAFMCP_HTTP_TOKEN");
  auto refused = run_checker({"--url", server.url()});
  EXPECT_EQ(refused.status["auth.challenge"], "FAIL") << refused.report.dump(2); // names no resource_metadata
  EXPECT_EQ(refused.status["capabilities.declared"], "FAIL");
  EXPECT_EQ(refused.exit, "exit 1");
  auto with_token = run_checker({"--url", server.url(), "--bearer-token", "s3cret"});
  EXPECT_EQ(with_token.status["capabilities.declared"], "PASS") << with_token.report.dump(2);
  EXPECT_EQ(with_token.status["tools.list_changed.added"], "PASS");
}

// A server breaking the rules on purpose (misbehaving_server.mjs): each
// rule it breaks is a FAIL naming what was wrong.
TEST(CafmcpCheck, MisbehavingServerFailsWhatItBreaks) {
  auto r = run_checker({"--stdio", "node " + std::string(CAFMCP_TEST_DIR) + "/misbehaving_server.mjs"});
  auto expected = without_tasks(everything_expected(false));
  expected["lifecycle.nothing-before-initialized"] = "FAIL"; // list_changed before initialized
  expected["tools.list_changed.added"] = "FAIL";             // sent though not declared
  expected["prompts.list_changed.added"] = "FAIL";           // declared, never sent
  expected["resources.updated.only-subscribers"] = "FAIL";   // sent for an unsubscribed uri
  expected["resources.unsubscribe.stops"] = "FAIL";          // and after unsubscribe
  expected["notifications.shape"] = "FAIL";                  // "params": null
  expected["cafmcp.operation-metadata"] = "INFO";
  EXPECT_EQ(r.status, expected) << r.report.dump(2);
  EXPECT_EQ(r.exit, "exit 1");
  for (auto& c : r.report["checks"]) {
    if (c["id"] == "notifications.shape") {
      EXPECT_NE(c["detail"].get<std::string>().find("params is null"), std::string::npos) << c["detail"];
    }
    if (c["id"] == "tools.list_changed.added") {
      EXPECT_NE(c["title"].get<std::string>().find("not declared"), std::string::npos) << c["title"];
    }
  }
}

// Replies with members of the wrong types (malformed_server.mjs): judged
// and reported whole, never the end of the run (a json type_error ended it).
TEST(CafmcpCheck, MalformedRepliesAreJudgedAndTheReportIsWhole) {
  auto r = run_checker({"--stdio", "node " + std::string(CAFMCP_TEST_DIR) + "/malformed_server.mjs"});
  EXPECT_EQ(r.exit, "exit 1");
  EXPECT_EQ(r.status["capabilities.declared"], "FAIL");
  for (auto& [id, status] : everything_expected(false))
    EXPECT_EQ(r.status.count(id), 1u) << id << " missing from the report:\n" << r.report.dump(2);
  for (auto& [id, status] : r.status) // each shape was foreseen by the check that met it
    EXPECT_EQ(id.find(".judged"), std::string::npos) << id << ": " << r.report.dump(2);
  for (auto& c : r.report["checks"])
    if (c["id"] == "capabilities.declared") {
      auto detail = c["detail"].get<std::string>();
      EXPECT_NE(detail.find("protocolVersion is not a string"), std::string::npos) << detail;
      EXPECT_NE(detail.find("resources.subscribe is not a boolean"), std::string::npos) << detail;
    }
}

class TsPeer : public ::testing::Test {
protected:
  void SetUp() override {
    if (!std::filesystem::exists(std::string(CAFMCP_TS_PEER_DIR) + "/node_modules/@modelcontextprotocol/sdk"))
      GTEST_SKIP() << "run scripts/install-deps (npm ci in bench/peers/ts) for the TypeScript SDK peer";
  }
  std::string script() const { return std::string(CAFMCP_TS_PEER_DIR) + "/server.mjs"; }
};

TEST_F(TsPeer, JudgedOverStdio) {
  auto r = run_checker({"--stdio", "node " + script() + " --stdio"});
  EXPECT_EQ(r.status, ts_peer_expected(false)) << r.report.dump(2);
  EXPECT_EQ(r.exit, "exit 1");
  EXPECT_EQ(r.report["summary"]["fail"], 2);
}

TEST_F(TsPeer, JudgedOverHttp) {
  http_server_process server({"node", script(), "--http", "--port", "0"});
  auto r = run_checker({"--url", server.url()});
  EXPECT_EQ(r.status, ts_peer_expected(true)) << r.report.dump(2);
  EXPECT_EQ(r.exit, "exit 1");
  EXPECT_EQ(r.report["summary"]["fail"], 3);
  for (auto& c : r.report["checks"]) {
    if (c["id"] == "streams.resumption-replays-missed") { // braces: EXPECT_NE hides an if/else
      EXPECT_NE(c["detail"].get<std::string>().find("no Last-Event-ID"), std::string::npos) << c["detail"];
    }
  }
}

// --protocol 2026-07-28: the everything-server serves the stateless
// revision beside 2025-11-25, so every listen check passes on both wires.
const std::vector<std::string> v2026_checks = {"v2026.discover",
                                               "v2026.resource-not-found",
                                               "v2026.listen.acknowledged",
                                               "v2026.listen.updated-only-its-uris",
                                               "v2026.listen.list-changed-opt-in",
                                               "v2026.listen.cancel-stops",
                                               "v2026.listen.every-notification-stamped"};

verdicts all(const std::vector<std::string>& ids, const std::string& status) {
  verdicts v;
  for (auto& id : ids)
    v[id] = status;
  return v;
}

TEST(CafmcpCheck2026, EverythingServerOverStdioPasses) {
  auto r = run_checker({"--protocol", "2026-07-28", "--stdio", bin("everything-server") + " --stdio"});
  EXPECT_EQ(r.status, all(v2026_checks, "PASS")) << r.report.dump(2);
  EXPECT_EQ(r.exit, "exit 0");
}

TEST(CafmcpCheck2026, EverythingServerOverHttpPasses) {
  http_server_process server({bin("everything-server"), "--http", "--port", "0"});
  auto r = run_checker({"--protocol", "2026-07-28", "--url", server.url()});
  auto expected = all(v2026_checks, "PASS");
  expected["auth.challenge"] = "INFO";
  EXPECT_EQ(r.status, expected) << r.report.dump(2);
  EXPECT_EQ(r.exit, "exit 0");
}

// A 2026-07-28 server breaking the listen rules on purpose: each is a FAIL.
TEST(CafmcpCheck2026, MisbehavingServerFailsWhatItBreaks) {
  auto r = run_checker({"--protocol", "2026-07-28", "--stdio",
                        "node " + std::string(CAFMCP_TEST_DIR) + "/misbehaving_2026_server.mjs"});
  auto expected = all(v2026_checks, "PASS");
  expected["v2026.resource-not-found"] = "FAIL";           // -32002, the 2025 code
  expected["v2026.listen.updated-only-its-uris"] = "FAIL"; // every listener hears every uri
  expected["v2026.listen.list-changed-opt-in"] = "FAIL";   // and every list change
  expected["v2026.listen.cancel-stops"] = "FAIL";          // and goes on after cancel
  EXPECT_EQ(r.status, expected) << r.report.dump(2);
  EXPECT_EQ(r.exit, "exit 1");
}

// The TypeScript SDK 1.32.2 peer speaks only 2025-11-25: discover fails
// (method not found) and the listen checks cannot run.
TEST_F(TsPeer, JudgedFor2026OverStdio) {
  auto r = run_checker({"--protocol", "2026-07-28", "--stdio", "node " + script() + " --stdio"});
  auto expected = all(v2026_checks, "SKIP");
  expected["v2026.discover"] = "FAIL";
  EXPECT_EQ(r.status, expected) << r.report.dump(2);
  EXPECT_EQ(r.exit, "exit 1");
}

} // namespace
} // namespace cafmcp::test

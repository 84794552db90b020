// The MCP lifecycle over a real session: negotiation, capabilities derived
// from what is registered, and what is allowed in which phase.
#include "support.hpp"

namespace cafmcp::test {
namespace {

json init_params(std::string version) {
  return {{"protocolVersion", std::move(version)},
          {"capabilities", json::object()},
          {"clientInfo", {{"name", "t"}, {"version", "1"}}}};
}

TEST(Lifecycle, EachSupportedVersionIsEchoed) {
  server srv;
  for (auto v : supported_protocol_versions) {
    in_process_client c(srv);
    auto r = c.request("initialize", init_params(std::string(v)));
    EXPECT_EQ(r["result"]["protocolVersion"], std::string(v));
  }
}

TEST(Lifecycle, AnUnknownVersionGetsOurLatest) {
  server srv;
  in_process_client c(srv);
  auto r = c.request("initialize", init_params("1999-01-01"));
  EXPECT_EQ(r["result"]["protocolVersion"], std::string(latest_protocol_version));
}

TEST(Lifecycle, CapabilitiesFollowWhatIsRegistered) {
  server srv; // automatic: declared only when something is registered
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  in_process_client c(srv);
  auto caps = c.initialize()["capabilities"];
  EXPECT_EQ(caps["tools"]["listChanged"], true);
  EXPECT_FALSE(caps.contains("prompts"));
  EXPECT_FALSE(caps.contains("resources"));
  EXPECT_TRUE(caps["logging"].is_object());
  EXPECT_TRUE(caps["completions"].is_object());
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "x"))));
  in_process_client later(srv);
  auto caps2 = later.initialize()["capabilities"];
  EXPECT_EQ(caps2["resources"]["subscribe"], true);
  EXPECT_EQ(caps2["resources"]["listChanged"], true);
}

TEST(Lifecycle, ServerInfoAndInstructionsAreSent) {
  server_options o;
  o.name = "demo";
  o.version = "9.9";
  o.instructions = "be nice";
  server srv(o);
  in_process_client c(srv);
  auto r = c.initialize();
  EXPECT_EQ(r["serverInfo"]["name"], "demo");
  EXPECT_EQ(r["serverInfo"]["version"], "9.9");
  EXPECT_EQ(r["instructions"], "be nice");
}

TEST(Lifecycle, RequestsBeforeInitializeAreRefusedButPingIsServed) {
  server srv;
  in_process_client c(srv);
  EXPECT_EQ(c.request("ping")["result"], json::object());
  auto r = c.request("tools/list");
  ASSERT_TRUE(r.contains("error"));
  EXPECT_EQ(r["error"]["code"], -32600);
  c.initialize();
  EXPECT_TRUE(c.request("tools/list").contains("result"));
}

TEST(Lifecycle, ASecondInitializeIsRefused) {
  server srv;
  in_process_client c(srv);
  c.initialize();
  auto r = c.request("initialize", init_params("2025-11-25"));
  ASSERT_TRUE(r.contains("error"));
  EXPECT_EQ(r["error"]["code"], -32600);
}

TEST(Lifecycle, MalformedInitializeParamsAreInvalidParams) {
  server srv;
  in_process_client c(srv);
  auto r = c.request("initialize", {{"protocolVersion", 5}});
  ASSERT_TRUE(r.contains("error"));
  EXPECT_EQ(r["error"]["code"], -32602);
  EXPECT_TRUE(c.initialize().contains("protocolVersion")); // and it can still start
}

} // namespace
} // namespace cafmcp::test

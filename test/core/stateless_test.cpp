// The 2026-07-28 revision through the actors, in process: stateless
// requests beside a 2025-11-25 session on one server, subscriptions/listen
// as a subscriber of the change notifier (same index as the sessions), and
// multi-round-trip input through request_context.
#include "support.hpp"

namespace cafmcp::test {
namespace {

const json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                   {"io.modelcontextprotocol/clientCapabilities", {{"elicitation", json::object()}}},
                   {"io.modelcontextprotocol/clientInfo", {{"name", "t"}, {"version", "1"}}}};

json with_meta(json params) {
  params["_meta"] = meta;
  return params;
}

std::string sub_id_of(const json& m) {
  return m["params"]["_meta"].value("io.modelcontextprotocol/subscriptionId", json()).dump();
}

// Opens a listen stream with request id `id`; returns its acknowledgement.
json listen(in_process_client& c, const std::string& id, json notifications) {
  c.send({{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "subscriptions/listen"},
          {"params", with_meta({{"notifications", std::move(notifications)}})}});
  auto ack = c.wait_for([&](const json& m) {
    return (is_method(m, "notifications/subscriptions/acknowledged") && sub_id_of(m) == json(id).dump())
           || (m.contains("error") && m["id"] == id);
  });
  return ack ? *ack : json();
}

TEST(Stateless, ServedWithoutInitializeBesideALegacySession) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  in_process_client legacy(srv);
  legacy.initialize();
  in_process_client modern(srv); // never initializes
  auto discover = modern.request("server/discover", with_meta(json::object()));
  EXPECT_EQ(discover["result"]["supportedVersions"], json::array({"2026-07-28"}));
  EXPECT_EQ(discover["result"]["resultType"], "complete");
  auto call = modern.request("tools/call", with_meta({{"name", "echo"}, {"arguments", {{"text", "hi"}}}}));
  EXPECT_EQ(call["result"]["content"][0]["text"], "hi");
  EXPECT_EQ(call["result"]["resultType"], "complete");
  EXPECT_EQ(modern.request("ping", with_meta(json::object()))["error"]["code"], -32601);
  EXPECT_EQ(modern.request("resources/read", with_meta({{"uri", "a://none"}}))["error"]["code"], -32602);
  EXPECT_EQ(
    modern.request("tools/list",
                   {{"_meta", {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}}}})["error"]["code"],
    -32602); // clientCapabilities missing
  // The legacy session is untouched: its errors and results keep 2025-11-25's shape.
  EXPECT_EQ(legacy.request("resources/read", {{"uri", "a://none"}})["error"]["code"], -32002);
  EXPECT_FALSE(legacy.request("tools/list")["result"].contains("resultType"));
}

TEST(Listen, OnlyWhatWasAskedForStampedWithItsIdAndTheLegacySessionGetsItsOwn) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_resource(text_resource("a://x", "x", "1"))));
  ASSERT_TRUE(applied(srv.add_resource(text_resource("a://y", "y", "1"))));
  in_process_client legacy(srv);
  legacy.initialize();
  legacy.request("resources/subscribe", {{"uri", "a://x"}});
  in_process_client modern(srv);
  auto ack = listen(modern, "L1", {{"resourceSubscriptions", {"a://x"}}, {"promptsListChanged", true}});
  ASSERT_TRUE(ack.contains("params")) << ack.dump();
  EXPECT_EQ(ack["params"]["notifications"],
            json({{"promptsListChanged", true}, {"resourceSubscriptions", {"a://x"}}}));
  EXPECT_EQ(srv.stats().listeners, 1u);

  srv.resource_updated("a://y");                      // nobody asked
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("t")))); // tools not asked for
  srv.resource_updated("a://x");
  auto updated = modern.wait_for_method("notifications/resources/updated");
  ASSERT_TRUE(updated);
  EXPECT_EQ((*updated)["params"]["uri"], "a://x");
  EXPECT_EQ(sub_id_of(*updated), "\"L1\"");
  auto legacy_updated = legacy.wait_for_method("notifications/resources/updated");
  ASSERT_TRUE(legacy_updated);
  EXPECT_EQ((*legacy_updated)["params"]["uri"], "a://x");
  EXPECT_FALSE((*legacy_updated)["params"].contains("_meta")); // no subscription id there
  // The updates for a://x and the tool change reached the legacy session;
  // the listener got exactly the one it asked for.
  ASSERT_TRUE(legacy.wait_for_method("notifications/tools/list_changed"));
  modern.request("tools/list", with_meta(json::object())); // a round trip: anything queued has arrived
  EXPECT_TRUE(modern.take([](const json& m) { return m.contains("method"); }).empty());
}

TEST(Listen, ListChangedCarriesOperationMetadataAndTheId) {
  server srv(all_on());
  in_process_client modern(srv);
  ASSERT_TRUE(listen(modern, "7", {{"toolsListChanged", true}}).contains("params"));
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("added"))));
  auto n = modern.wait_for_method("notifications/tools/list_changed");
  ASSERT_TRUE(n);
  EXPECT_EQ(sub_id_of(*n), "\"7\"");
  EXPECT_EQ((*n)["params"]["operation"], "added"); // as on the legacy path
  EXPECT_EQ((*n)["params"]["name"], "added");
}

TEST(Listen, CancelOrDisconnectRemovesTheListener) {
  server srv(all_on());
  in_process_client pinger(srv);
  pinger.initialize();
  in_process_client a(srv), b(srv);
  ASSERT_TRUE(listen(a, "1", {{"resourceSubscriptions", {"a://x"}}}).contains("params"));
  ASSERT_TRUE(listen(b, "1", {{"toolsListChanged", true}}).contains("params"));
  EXPECT_EQ(srv.stats().listeners, 2u);
  EXPECT_EQ(srv.stats().subscriptions, 1u); // the listener's URI is in the shared index
  a.notify("notifications/cancelled", {{"requestId", "1"}});
  EXPECT_TRUE(
    eventually(srv, pinger, [](const server_stats& s) { return s.listeners == 1 && s.subscriptions == 0; }));
  b.close();
  EXPECT_TRUE(eventually(srv, pinger, [](const server_stats& s) { return s.listeners == 0; }));
}

TEST(Listen, LimitsAreConfigurableAndRefusedClearly) {
  auto opts = all_on();
  opts.max_listeners = 1;
  opts.max_uris_per_listener = 2;
  server srv(opts);
  in_process_client c(srv);
  auto too_many_uris = listen(c, "u", {{"resourceSubscriptions", {"a://1", "a://2", "a://3"}}});
  EXPECT_EQ(too_many_uris["error"]["code"], -32602);
  EXPECT_NE(too_many_uris["error"]["message"].get<std::string>().find("limit 2"), std::string::npos);
  ASSERT_TRUE(listen(c, "first", {{"resourceSubscriptions", {"a://1", "a://2"}}}).contains("params"));
  auto second = listen(c, "second", {{"toolsListChanged", true}});
  EXPECT_EQ(second["error"]["code"], -32602);
  EXPECT_NE(second["error"]["message"].get<std::string>().find("listener limit"), std::string::npos);
  EXPECT_EQ(srv.stats().listeners, 1u);
}

tool asking_tool() {
  tool t;
  t.name = "ask";
  t.input_schema = {{"type", "object"}};
  t.handler = [](const json&, request_context& ctx) {
    auto first = ctx.request("elicitation/create", {{"message", "name?"}});
    auto second = ctx.request("elicitation/create", {{"message", "color?"}});
    return tool_result::text(first["content"]["v"].get<std::string>() + "/"
                             + second["content"]["v"].get<std::string>());
  };
  return t;
}

TEST(MultiRoundTrip, RequestContextAsksThroughInputRequiredAndStateIsSealed) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_tool(asking_tool())));
  in_process_client c(srv);
  auto r1 = c.request("tools/call", with_meta({{"name", "ask"}}))["result"];
  ASSERT_EQ(r1["resultType"], "input_required") << r1.dump();
  ASSERT_TRUE(r1["inputRequests"].contains("cafmcp-0"));
  EXPECT_EQ(r1["inputRequests"]["cafmcp-0"]["method"], "elicitation/create");
  auto r2 = c.request(
    "tools/call",
    with_meta({{"name", "ask"},
               {"inputResponses", {{"cafmcp-0", {{"action", "accept"}, {"content", {{"v", "ann"}}}}}}},
               {"requestState", r1["requestState"]}}))["result"];
  ASSERT_EQ(r2["resultType"], "input_required") << r2.dump();
  ASSERT_TRUE(r2["inputRequests"].contains("cafmcp-1"));
  // The first answer travels in the sealed state: round 3 sends only the second.
  auto r3 = c.request(
    "tools/call",
    with_meta({{"name", "ask"},
               {"inputResponses", {{"cafmcp-1", {{"action", "accept"}, {"content", {{"v", "red"}}}}}}},
               {"requestState", r2["requestState"]}}))["result"];
  EXPECT_EQ(r3["resultType"], "complete");
  EXPECT_EQ(r3["content"][0]["text"], "ann/red");
  auto tampered = r2["requestState"].get<std::string>();
  tampered[2] = tampered[2] == 'x' ? 'y' : 'x';
  auto refused = c.request("tools/call", with_meta({{"name", "ask"}, {"requestState", tampered}}));
  EXPECT_EQ(refused["error"]["code"], -32602);
}

TEST(MultiRoundTrip, UndeclaredCapabilityIsRefused) {
  server srv(all_on());
  tool t;
  t.name = "sample";
  t.input_schema = {{"type", "object"}};
  t.handler = [](const json&, request_context& ctx) {
    ctx.request("sampling/createMessage", {{"messages", json::array()}, {"maxTokens", 1}});
    return tool_result::text("unreachable");
  };
  ASSERT_TRUE(applied(srv.add_tool(t)));
  in_process_client c(srv);
  auto r = c.request("tools/call", with_meta({{"name", "sample"}})); // declares elicitation only
  EXPECT_EQ(r["error"]["code"], -32021);
  EXPECT_EQ(r["error"]["data"]["requiredCapabilities"], json({{"sampling", json::object()}}));
}

} // namespace
} // namespace cafmcp::test

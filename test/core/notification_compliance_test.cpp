// The notification behaviours cafmcp promises, one test per behaviour,
// driven through real sessions (in-process transport, real actors).
#include <map>

#include "actors/server_access.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

const std::string resources_changed = "notifications/resources/list_changed";
const std::string tools_changed = "notifications/tools/list_changed";
const std::string prompts_changed = "notifications/prompts/list_changed";
const std::string updated = "notifications/resources/updated";

class NotificationCompliance : public ::testing::Test {
protected:
  server srv{all_on()};
};

// Waits, a bounded number of pings long, until `replaced()` holds: the
// supervisor's restart is its own message, observed from here as the
// runtime's handle changing. Each ping is a round trip through the session,
// so the loop makes progress without sleeping.
template <class Replaced>
bool restart_seen(in_process_client& c, Replaced replaced) {
  for (int i = 0; i < 500; ++i) {
    if (replaced())
      return true;
    c.request("ping");
  }
  return replaced();
}

TEST_F(NotificationCompliance, ResourceAddedSendsListChangedWithOperationMetadata) {
  in_process_client c(srv);
  c.initialize();
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  auto n = c.wait_for_method(resources_changed);
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["params"]["operation"], "added");
  EXPECT_EQ((*n)["params"]["uri"], "mem://a");
  EXPECT_EQ((*n)["params"]["resource"]["uri"], "mem://a");
  EXPECT_EQ((*n)["params"]["resource"]["name"], "a");
  EXPECT_EQ((*n)["params"]["resource"]["mimeType"], "text/plain");
}

TEST_F(NotificationCompliance, ResourceRemovedSendsListChangedRemoved) {
  in_process_client c(srv);
  c.initialize();
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  ASSERT_TRUE(applied(srv.remove_resource("mem://a")));
  auto added = c.wait_for_method(resources_changed);
  auto removed = c.wait_for_method(resources_changed);
  ASSERT_TRUE(added && removed);
  EXPECT_EQ((*removed)["params"]["operation"], "removed");
  EXPECT_EQ((*removed)["params"]["resource"]["name"], "a");
}

TEST_F(NotificationCompliance, RemovingAnUnknownItemIsRefusedAndSendsNothing) {
  in_process_client c(srv);
  c.initialize();
  EXPECT_FALSE(applied(srv.remove_resource("mem://nope")));
  EXPECT_FALSE(applied(srv.remove_tool("nope")));
  srv.stats(); // barrier: the notifier has handled everything sent before
  EXPECT_TRUE(c.take([](const json& m) { return m.contains("method"); }).empty());
}

TEST_F(NotificationCompliance, DescriptorChangeSendsListChangedUpdated) {
  in_process_client c(srv);
  c.initialize();
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  auto renamed = text_resource("mem://a", "renamed", "A");
  ASSERT_TRUE(applied(srv.add_resource(renamed)));
  c.wait_for_method(resources_changed);
  auto n = c.wait_for_method(resources_changed);
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["params"]["operation"], "updated");
  EXPECT_EQ((*n)["params"]["resource"]["name"], "renamed");
}

TEST_F(NotificationCompliance, ContentChangeSendsUpdatedToSubscribersNotListChanged) {
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  in_process_client c(srv);
  c.initialize();
  ASSERT_TRUE(c.request("resources/subscribe", {{"uri", "mem://a"}}).contains("result"));
  ASSERT_TRUE(applied(
    srv.set_resource_contents("mem://a", {resource_contents::make_text("mem://a", "B", "text/plain")})));
  auto n = c.wait_for_method(updated);
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["params"]["uri"], "mem://a");
  srv.stats();
  EXPECT_TRUE(c.take([](const json& m) { return is_method(m, resources_changed); }).empty());
  auto read = c.request("resources/read", {{"uri", "mem://a"}});
  EXPECT_EQ(read["result"]["contents"][0]["text"], "B");
}

TEST_F(NotificationCompliance, ToolAddedUpdatedRemovedSendListChangedWithName) {
  in_process_client c(srv);
  c.initialize();
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  auto changed = echo_tool("echo");
  changed.description = "now different";
  ASSERT_TRUE(applied(srv.add_tool(changed)));
  ASSERT_TRUE(applied(srv.remove_tool("echo")));
  for (auto op : {"added", "updated", "removed"}) {
    auto n = c.wait_for_method(tools_changed);
    ASSERT_TRUE(n) << op;
    EXPECT_EQ((*n)["params"]["operation"], op);
    EXPECT_EQ((*n)["params"]["name"], "echo");
    EXPECT_EQ((*n)["params"]["tool"]["name"], "echo");
    EXPECT_TRUE((*n)["params"]["tool"].contains("inputSchema"));
  }
}

TEST_F(NotificationCompliance, PromptAddedAndRemovedSendListChangedWithName) {
  in_process_client c(srv);
  c.initialize();
  ASSERT_TRUE(applied(srv.add_prompt(simple_prompt("greet"))));
  ASSERT_TRUE(applied(srv.remove_prompt("greet")));
  for (auto op : {"added", "removed"}) {
    auto n = c.wait_for_method(prompts_changed);
    ASSERT_TRUE(n) << op;
    EXPECT_EQ((*n)["params"]["operation"], op);
    EXPECT_EQ((*n)["params"]["name"], "greet");
    EXPECT_EQ((*n)["params"]["prompt"]["name"], "greet");
  }
}

TEST_F(NotificationCompliance, TemplateAddedSendsResourcesListChangedWithTemplate) {
  in_process_client c(srv);
  c.initialize();
  resource_template t;
  t.uri_template = "mem://item/{id}";
  t.name = "item";
  ASSERT_TRUE(applied(srv.add_resource_template(t)));
  auto n = c.wait_for_method(resources_changed);
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["params"]["operation"], "added");
  EXPECT_EQ((*n)["params"]["uri"], "mem://item/{id}");
  EXPECT_EQ((*n)["params"]["resourceTemplate"]["uriTemplate"], "mem://item/{id}");
}

TEST_F(NotificationCompliance, NotificationsCarryNoId) {
  in_process_client c(srv);
  c.initialize();
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  auto n = c.wait_for_method(tools_changed);
  ASSERT_TRUE(n);
  EXPECT_FALSE(n->contains("id"));
  EXPECT_EQ((*n)["jsonrpc"], "2.0");
  EXPECT_TRUE((*n)["params"].is_object());
}

TEST_F(NotificationCompliance, MetaModeCarriesTheChangeUnderMeta) {
  auto opts = all_on();
  opts.list_changed_metadata = change_metadata::meta;
  server meta_srv(opts);
  in_process_client c(meta_srv);
  c.initialize();
  ASSERT_TRUE(applied(meta_srv.add_tool(echo_tool("echo"))));
  auto n = c.wait_for_method(tools_changed);
  ASSERT_TRUE(n);
  EXPECT_FALSE((*n)["params"].contains("operation"));
  auto& change = (*n)["params"]["_meta"]["io.cafmcp/change"];
  EXPECT_EQ(change["operation"], "added");
  EXPECT_EQ(change["name"], "echo");
}

TEST_F(NotificationCompliance, UpdatedReachesOnlySubscribers) {
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  in_process_client subscriber(srv), bystander(srv);
  subscriber.initialize();
  bystander.initialize();
  ASSERT_TRUE(subscriber.request("resources/subscribe", {{"uri", "mem://a"}}).contains("result"));
  srv.resource_updated("mem://a");
  ASSERT_TRUE(subscriber.wait_for_method(updated));
  srv.stats(); // the broadcast is over: anything for the bystander is queued by now
  EXPECT_TRUE(bystander.take([](const json& m) { return is_method(m, updated); }).empty());
}

TEST_F(NotificationCompliance, ListChangedReachesEveryInitializedSession) {
  std::vector<std::unique_ptr<in_process_client>> clients;
  for (int i = 0; i < 5; ++i) {
    clients.push_back(std::make_unique<in_process_client>(srv));
    clients.back()->initialize();
  }
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  for (auto& c : clients)
    EXPECT_TRUE(c->wait_for_method(tools_changed));
  EXPECT_EQ(srv.stats().sessions, 5u);
}

TEST_F(NotificationCompliance, UnsubscribeStopsDelivery) {
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://b", "b", "B"))));
  in_process_client c(srv);
  c.initialize();
  c.request("resources/subscribe", {{"uri", "mem://a"}});
  c.request("resources/subscribe", {{"uri", "mem://b"}});
  ASSERT_TRUE(c.request("resources/unsubscribe", {{"uri", "mem://a"}}).contains("result"));
  srv.resource_updated("mem://a");
  srv.resource_updated("mem://b");
  auto n = c.wait_for_method(updated);
  ASSERT_TRUE(n);
  EXPECT_EQ((*n)["params"]["uri"], "mem://b"); // a's would have come first
  srv.stats();
  EXPECT_TRUE(c.take([](const json& m) { return is_method(m, updated); }).empty());
}

TEST_F(NotificationCompliance, SubscribeIsIdempotentAndDeliversOnce) {
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  in_process_client c(srv);
  c.initialize();
  c.request("resources/subscribe", {{"uri", "mem://a"}});
  c.request("resources/subscribe", {{"uri", "mem://a"}});
  EXPECT_EQ(srv.stats().subscriptions, 1u);
  srv.resource_updated("mem://a");
  ASSERT_TRUE(c.wait_for_method(updated));
  srv.stats();
  EXPECT_TRUE(c.take([](const json& m) { return is_method(m, updated); }).empty());
}

TEST_F(NotificationCompliance, NothingIsSentBeforeInitialized) {
  in_process_client c(srv);
  auto reply = c.request("initialize", {{"protocolVersion", "2025-11-25"},
                                        {"capabilities", json::object()},
                                        {"clientInfo", {{"name", "t"}, {"version", "1"}}}});
  ASSERT_TRUE(reply.contains("result"));
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("before"))));
  srv.stats();
  EXPECT_TRUE(c.take([](const json& m) { return m.contains("method"); }).empty());
  c.notify("notifications/initialized");
  // Activation travels session -> notifier; wait for it through a change.
  bool seen = false;
  for (int i = 0; i < 50 && !seen; ++i) {
    ASSERT_TRUE(applied(srv.add_tool(echo_tool("after" + std::to_string(i)))));
    seen = c.wait_for_method(tools_changed, 100ms).has_value();
  }
  EXPECT_TRUE(seen);
}

TEST_F(NotificationCompliance, SubscribingToAnUnknownUriIsResourceNotFound) {
  in_process_client c(srv);
  c.initialize();
  auto reply = c.request("resources/subscribe", {{"uri", "mem://missing"}});
  ASSERT_TRUE(reply.contains("error"));
  EXPECT_EQ(reply["error"]["code"], -32002);
  EXPECT_EQ(reply["error"]["data"]["uri"], "mem://missing");
}

TEST_F(NotificationCompliance, TemplateExpansionsAreSubscribableAndNotified) {
  resource_template t;
  t.uri_template = "mem://item/{id}";
  t.name = "item";
  ASSERT_TRUE(applied(srv.add_resource_template(t)));
  in_process_client exact(srv), wildcard(srv);
  exact.initialize();
  wildcard.initialize();
  ASSERT_TRUE(exact.request("resources/subscribe", {{"uri", "mem://item/7"}}).contains("result"));
  // Subscribing to the template's own text covers every expansion.
  ASSERT_TRUE(wildcard.request("resources/subscribe", {{"uri", "mem://item/{id}"}}).contains("result"));
  srv.resource_updated("mem://item/7");
  srv.resource_updated("mem://item/8");
  auto e = exact.wait_for_method(updated);
  ASSERT_TRUE(e);
  EXPECT_EQ((*e)["params"]["uri"], "mem://item/7");
  auto w1 = wildcard.wait_for_method(updated);
  auto w2 = wildcard.wait_for_method(updated);
  ASSERT_TRUE(w1 && w2);
  EXPECT_EQ((*w1)["params"]["uri"], "mem://item/7");
  EXPECT_EQ((*w2)["params"]["uri"], "mem://item/8");
  srv.stats();
  EXPECT_TRUE(exact.take([](const json& m) { return is_method(m, updated); }).empty());
}

TEST_F(NotificationCompliance, ExactAndTemplateSubscriptionDeliverOnce) {
  resource_template t;
  t.uri_template = "mem://item/{id}";
  t.name = "item";
  ASSERT_TRUE(applied(srv.add_resource_template(t)));
  in_process_client c(srv);
  c.initialize();
  c.request("resources/subscribe", {{"uri", "mem://item/7"}});
  c.request("resources/subscribe", {{"uri", "mem://item/{id}"}});
  srv.resource_updated("mem://item/7");
  ASSERT_TRUE(c.wait_for_method(updated));
  srv.stats();
  EXPECT_TRUE(c.take([](const json& m) { return is_method(m, updated); }).empty());
}

TEST_F(NotificationCompliance, SubscribablePolicyRefusesOtherUris) {
  auto opts = all_on();
  opts.subscribable = [](std::string_view uri) { return uri == "mem://ok"; };
  server strict(opts);
  ASSERT_TRUE(applied(strict.add_resource(text_resource("mem://ok", "ok", "x"))));
  ASSERT_TRUE(applied(strict.add_resource(text_resource("mem://no", "no", "x"))));
  in_process_client c(strict);
  c.initialize();
  EXPECT_TRUE(c.request("resources/subscribe", {{"uri", "mem://ok"}}).contains("result"));
  auto refused = c.request("resources/subscribe", {{"uri", "mem://no"}});
  ASSERT_TRUE(refused.contains("error"));
  EXPECT_EQ(refused["error"]["code"], -32602);
  EXPECT_NE(refused["error"]["message"].get<std::string>().find("mem://no"), std::string::npos);
}

TEST_F(NotificationCompliance, SubscriptionLimitIsEnforcedClearly) {
  auto opts = all_on();
  opts.max_subscriptions_per_session = 2;
  server limited(opts);
  for (auto u : {"mem://1", "mem://2", "mem://3"})
    ASSERT_TRUE(applied(limited.add_resource(text_resource(u, u, "x"))));
  in_process_client c(limited);
  c.initialize();
  EXPECT_TRUE(c.request("resources/subscribe", {{"uri", "mem://1"}}).contains("result"));
  EXPECT_TRUE(c.request("resources/subscribe", {{"uri", "mem://2"}}).contains("result"));
  auto over = c.request("resources/subscribe", {{"uri", "mem://3"}});
  ASSERT_TRUE(over.contains("error"));
  EXPECT_EQ(over["error"]["code"], -32602);
  EXPECT_EQ(c.request("ping")["result"], json::object()); // the session goes on
}

TEST_F(NotificationCompliance, ASessionThatEndsLeavesNoSubscriptionBehind) {
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  in_process_client stays(srv);
  stays.initialize();
  stays.request("resources/subscribe", {{"uri", "mem://a"}});
  {
    in_process_client leaves(srv);
    leaves.initialize();
    leaves.request("resources/subscribe", {{"uri", "mem://a"}});
    EXPECT_EQ(srv.stats().subscriptions, 2u);
  } // closes the connection: the session actor stops
  EXPECT_TRUE(
    eventually(srv, stays, [](const server_stats& s) { return s.subscriptions == 1 && s.sessions == 1; }));
  srv.resource_updated("mem://a");
  EXPECT_TRUE(stays.wait_for_method(updated));
}

TEST_F(NotificationCompliance, CrashedServerActorIsRestartedWithItsRegistry) {
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  in_process_client c(srv);
  c.initialize();
  auto& rt = *server_access::of(srv).rt;
  auto before = rt.server();
  // Not exit_reason::kill: CAF propagates kill through links untrappably.
  caf::anon_send_exit(before, caf::exit_reason::unhandled_exception);
  ASSERT_TRUE(restart_seen(
    c, [&] { return srv.stats().server_restarts == 1 && rt.server() && rt.server() != before; }));
  auto tools = c.request("tools/list");
  ASSERT_TRUE(tools.contains("result"));
  ASSERT_EQ(tools["result"]["tools"].size(), 1u);
  EXPECT_EQ(tools["result"]["tools"][0]["name"], "echo");
  auto call = c.request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "hi"}}}});
  EXPECT_EQ(call["result"]["content"][0]["text"], "hi");
}

// Calls the server actor handed to their handlers before it died are
// answered by those handlers, exactly once: a handler may have acted (a
// mutation made), so telling the client to retry would be a lie. The
// session serves on with the restarted actor.
TEST_F(NotificationCompliance, CallsHandedToHandlersBeforeTheServerActorDiesAreAnsweredByThem) {
  held_tool hold;
  ASSERT_TRUE(applied(srv.add_tool(hold.make())));
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  in_process_client c(srv);
  c.initialize();
  // Ids of our own: MCP forbids reusing one in a session, and the
  // client's request() counts 1, 2, 3...
  const std::vector<json> ids = {"held-1", "held-2", "held-3"};
  for (auto& id : ids)
    c.send(call_message(id, "hold"));
  ASSERT_TRUE(hold.wait_started(3)); // all three are with the server's handlers
  auto& rt = *server_access::of(srv).rt;
  auto before = rt.server();
  // Not exit_reason::kill: CAF propagates kill through links untrappably.
  caf::anon_send_exit(before, caf::exit_reason::unhandled_exception);
  ASSERT_TRUE(restart_seen(c, [&] { return rt.server() && rt.server() != before; }));
  EXPECT_TRUE(c.take([&](const json& m) {
                 return m.contains("id") && std::find(ids.begin(), ids.end(), m["id"]) != ids.end();
               })
                .empty()); // not told to retry: their handlers still run
  hold.release();
  for (auto& id : ids) {
    auto answer = response_to(c, id);
    ASSERT_TRUE(answer) << "no answer to " << id.dump();
    EXPECT_TRUE(answer->contains("result")) << answer->dump();
  }
  auto again = c.request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "again"}}}});
  EXPECT_EQ(again["result"]["content"][0]["text"], "again");
  EXPECT_TRUE(c.take([&](const json& m) {
                 return m.contains("id") && std::find(ids.begin(), ids.end(), m["id"]) != ids.end();
               })
                .empty()); // no second answer to any of them
  EXPECT_EQ(srv.stats().server_restarts, 1u);
}

// Calls still in the server actor's mailbox when it dies are lost with it:
// each gets the "retry" error at once (not a timeout, not silence), and a
// retry is served by its successor. The actor is held in a mutation while
// its exit and then the calls queue behind it (a mailbox is FIFO).
TEST_F(NotificationCompliance, CallsTheServerActorNeverHandledAreToldToRetry) {
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  in_process_client c(srv);
  c.initialize();
  auto& rt = *server_access::of(srv).rt;
  auto before = rt.server();
  std::promise<void> inside, leave;
  auto left = leave.get_future().share();
  actors::mutation busy{"hold the server actor",
                        [&inside, left](protocol::registry&) {
                          inside.set_value();
                          left.wait();
                          return protocol::mutation_effect{};
                        },
                        nullptr,
                        {}};
  caf::anon_send(before, actors::mutate_atom::value, std::move(busy));
  ASSERT_EQ(inside.get_future().wait_for(std::chrono::seconds(30)), std::future_status::ready);
  caf::anon_send_exit(before, caf::exit_reason::unhandled_exception);
  const std::vector<json> ids = {"lost-1", "lost-2", "lost-3"};
  for (auto& id : ids)
    c.send(call_message(id, "echo"));
  c.request("ping"); // answered by the session: the calls before it went to the server actor
  leave.set_value();
  for (auto& id : ids) {
    auto answer = response_to(c, id);
    ASSERT_TRUE(answer) << "no answer to " << id.dump();
    ASSERT_TRUE(answer->contains("error")) << answer->dump();
    EXPECT_EQ((*answer)["error"]["code"], -32603);
    EXPECT_NE((*answer)["error"]["message"].get<std::string>().find("retry"), std::string::npos);
  }
  // The session learnt of the death from its monitor; the supervisor's
  // restart is a separate message, and a call sent before the successor is
  // in place is told to retry as well (correctly). Wait for the successor.
  ASSERT_TRUE(restart_seen(
    c, [&] { return srv.stats().server_restarts == 1 && rt.server() && rt.server() != before; }));
  auto again = c.request("tools/call", {{"name", "echo"}, {"arguments", {{"text", "again"}}}});
  EXPECT_EQ(again["result"]["content"][0]["text"], "again");
  EXPECT_EQ(srv.stats().server_restarts, 1u);
}

// An ended session leaves nothing behind in the long-lived actors. Its
// monitor of the server actor was an attachable there holding the
// session's address, a weak reference that kept the session actor's memory
// (CAF allocates it with the control block) until the server actor died:
// ~1.5 KB per session for ever (found by bench/soak: RSS grew linearly with
// sessions opened). Observed exactly: once the session is gone, the test's
// own weak reference is the only one left on its control block (the
// server's roster of live sessions let go of it as the session ended).
TEST_F(NotificationCompliance, AnEndedSessionLeavesNoReferenceInTheServerActor) {
  auto& inside = server_access::of(srv);
  in_process_client other(srv);
  other.initialize();
  auto live_ids = [&] {
    std::map<caf::actor_id, caf::weak_actor_ptr> ids;
    inside.rt->sessions->for_each_live(
      [&](const caf::strong_actor_ptr& s) { ids.emplace(s->id(), caf::actor_cast<caf::weak_actor_ptr>(s)); });
    return ids;
  };
  auto before = live_ids();
  caf::weak_actor_ptr session;
  {
    in_process_client c(srv);
    c.initialize(); // it asked the server actor, and monitors it
    auto now = live_ids();
    ASSERT_EQ(now.size(), before.size() + 1);
    for (auto& [id, weak] : now)
      if (!before.count(id))
        session = weak;
  } // closed
  auto* block = session.get();
  ASSERT_NE(block, nullptr);
  // Actors finish asynchronously: bounded round trips, no sleep.
  auto until = [&](auto done) {
    for (int i = 0; i < 500 && !done(); ++i)
      other.request("ping");
    return done();
  };
  ASSERT_TRUE(until([&] { return !session.lock(); })) << "the session did not end";
  EXPECT_TRUE(until([&] { return inside.rt->sessions->size() == before.size(); }))
    << "the server's roster still lists the ended session";
  EXPECT_TRUE(until([&] { return block->weak_refs.load() == 1; }))
    << block->weak_refs.load() - 1 << " other reference(s) to the ended session's address remain";
}

// server_options::supervision is the supervisor's restart intensity: with
// no restart allowed, the first crash ends the supervisor (OTP's "give up")
// instead of restarting the notifier.
TEST(Supervision, ACrashPastTheRestartLimitEndsTheSupervisor) {
  auto opts = all_on();
  opts.supervision.max_restarts = 0;
  server srv{opts};
  auto& inside = server_access::of(srv);
  auto before = inside.rt->notifier();
  caf::scoped_actor self{*inside.system};
  self->monitor(inside.supervisor);
  caf::anon_send_exit(before, caf::exit_reason::unhandled_exception);
  bool down = false;
  self->receive([&](caf::down_msg& m) { down = m.source == inside.supervisor.address(); },
                caf::after(std::chrono::seconds(30)) >> [] {});
  EXPECT_TRUE(down);
  EXPECT_EQ(inside.rt->notifier_restarts.load(), 0u);
}

TEST_F(NotificationCompliance, CrashedNotifierIsRestartedWithSessionsAndSubscriptions) {
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  in_process_client c(srv);
  c.initialize();
  c.request("resources/subscribe", {{"uri", "mem://a"}});
  auto& rt = *server_access::of(srv).rt;
  auto before = rt.notifier();
  // Not exit_reason::kill: CAF propagates kill through links untrappably.
  caf::anon_send_exit(before, caf::exit_reason::unhandled_exception);
  ASSERT_TRUE(restart_seen(c, [&] { return rt.notifier() && rt.notifier() != before; }));
  auto s = srv.stats();
  EXPECT_EQ(s.notifier_restarts, 1u);
  EXPECT_EQ(s.subscriptions, 1u);
  srv.resource_updated("mem://a");
  EXPECT_TRUE(c.wait_for_method(updated));
}

// What a dead notifier still had in its mailbox died with it, and nothing
// says what: its successor tells every client to re-read every list and
// every resource it subscribes to (at least once, never lost).
TEST_F(NotificationCompliance, ARestartedNotifierTellsEveryClientToReadAgain) {
  ASSERT_TRUE(applied(srv.add_resource(text_resource("mem://a", "a", "A"))));
  in_process_client c(srv);
  c.initialize();
  c.request("resources/subscribe", {{"uri", "mem://a"}});
  in_process_client other(srv); // subscribes to nothing
  other.initialize();
  auto& rt = *server_access::of(srv).rt;
  auto before = rt.notifier();
  // Not exit_reason::kill: CAF propagates kill through links untrappably.
  caf::anon_send_exit(before, caf::exit_reason::unhandled_exception);
  for (auto* client : {&c, &other})
    for (auto& method : {tools_changed, resources_changed, prompts_changed}) {
      auto m = client->wait_for_method(method);
      ASSERT_TRUE(m) << method;
      EXPECT_FALSE(m->contains("params")) << m->dump(); // a resync: no operation to name
    }
  auto u = c.wait_for_method(updated);
  ASSERT_TRUE(u);
  EXPECT_EQ((*u)["params"]["uri"], "mem://a");
  EXPECT_EQ(srv.stats().notifier_restarts, 1u);
  EXPECT_TRUE(other.take([](const json& m) { return is_method(m, updated); }).empty());
}

} // namespace
} // namespace cafmcp::test

// cafmcp::client against the everything-server over each transport: the
// real binary over stdio and Streamable HTTP, and the same fixtures served
// in-process. Every cache, list-changed and subscription rule of the client
// issue, observed through the client's events.
#include <atomic>
#include <csignal>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "cafmcp/client.hpp"
#include "cafmcp/http_client_transport.hpp"
#include "cafmcp/in_process_client_transport.hpp"
#include "cafmcp/stdio_client_transport.hpp"

#include "client_transport/http_stream_control.hpp"
#include "fixtures.hpp"
#include "interposer.hpp"
#include "support.hpp"

namespace cafmcp::test {
namespace {

enum class via { in_process, stdio, http };

/// Every event the client raised, in order, with waits bounded in time.
class event_log {
public:
  void attach(client& c) {
    for (auto k : {client_event_kind::tools_changed, client_event_kind::resources_changed,
                   client_event_kind::resource_templates_changed, client_event_kind::prompts_changed,
                   client_event_kind::resource_updated, client_event_kind::subscriptions_changed,
                   client_event_kind::cache_changed, client_event_kind::reload_failed,
                   client_event_kind::log_message, client_event_kind::closed})
      subs_.push_back(c.on(k, [this](const client_event& e) {
        std::lock_guard<std::mutex> g(mtx_);
        events_.push_back(e);
        cv_.notify_all();
      }));
  }
  /// The first event from index `from` that `match` accepts.
  std::optional<client_event> wait(const std::function<bool(const client_event&)>& match,
                                   std::size_t from = 0, std::chrono::milliseconds timeout = 10s) {
    std::unique_lock<std::mutex> g(mtx_);
    std::optional<client_event> found;
    cv_.wait_for(g, timeout, [&] {
      for (auto i = from; i < events_.size(); ++i)
        if (match(events_[i])) {
          found = events_[i];
          return true;
        }
      return false;
    });
    return found;
  }
  /// Waits until `n` events from index `from` match.
  bool wait_count(const std::function<bool(const client_event&)>& match, std::size_t n, std::size_t from,
                  std::chrono::milliseconds timeout = 10s) {
    std::unique_lock<std::mutex> g(mtx_);
    return cv_.wait_for(g, timeout, [&] {
      return static_cast<std::size_t>(
               std::count_if(events_.begin() + static_cast<std::ptrdiff_t>(from), events_.end(), match))
             >= n;
    });
  }
  std::size_t count(const std::function<bool(const client_event&)>& match, std::size_t from = 0) {
    std::lock_guard<std::mutex> g(mtx_);
    return std::count_if(events_.begin() + static_cast<std::ptrdiff_t>(from), events_.end(), match);
  }
  std::size_t mark() {
    std::lock_guard<std::mutex> g(mtx_);
    return events_.size();
  }

private:
  std::mutex mtx_;
  std::condition_variable cv_;
  std::vector<client_event> events_;
  std::vector<event_subscription> subs_;
};

auto is(client_event_kind k, std::string key = {}) {
  return [k, key](const client_event& e) { return e.kind == k && (key.empty() || e.key == key); };
}

bool has(const std::vector<json>& list, const std::string& field, const std::string& value) {
  return std::any_of(list.begin(), list.end(), [&](const json& d) { return d.value(field, "") == value; });
}

class ClientOver : public ::testing::TestWithParam<via> {
protected:
  /// A client connected to a fresh everything-server whose list_changed
  /// carries operation metadata as `metadata` says (both | none).
  void start(const std::string& metadata = "both", client_options opts = {}) {
    std::unique_ptr<client_transport> real;
    switch (GetParam()) {
      case via::in_process: {
        server_options so;
        so.name = "cafmcp-everything-server";
        so.list_changed_metadata = metadata == "none" ? change_metadata::none : change_metadata::both;
        srv_ = std::make_unique<server>(so);
        everything::install_conformance_fixtures(*srv_);
        everything::install_mutation_tools(*srv_);
        real = make_in_process_client_transport(*srv_);
        break;
      }
      case via::stdio:
        real = make_stdio_client_transport(
          {.argv = {bin("everything-server"), "--stdio", "--change-metadata", metadata},
           .child_stderr = stdio_client_options::stderr_mode::discard});
        break;
      case via::http:
        http_ = std::make_unique<http_server_process>(std::vector<std::string>{
          bin("everything-server"), "--http", "--port", "0", "--change-metadata", metadata});
        real = make_http_client_transport({.url = http_->url()});
        break;
    }
    auto tap = std::make_unique<interposer>(std::move(real));
    tap_ = tap.get();
    c_ = std::make_unique<client>(std::move(tap), std::move(opts));
    log_.attach(*c_);
    auto init = c_->connect().get();
    ASSERT_EQ(init["protocolVersion"], "2025-11-25");
    // Events reach handlers on the client's callback thread: let the four
    // initial list loads' events in before a test marks where it starts.
    ASSERT_TRUE(log_.wait_count(
      [](const client_event& e) {
        return e.kind == client_event_kind::tools_changed || e.kind == client_event_kind::resources_changed
               || e.kind == client_event_kind::resource_templates_changed
               || e.kind == client_event_kind::prompts_changed;
      },
      4, 0));
  }

  std::shared_ptr<const tool_call> call(const std::string& tool, json args) {
    auto r = c_->call_tool(tool, std::move(args)).get();
    EXPECT_TRUE(r->success()) << tool << ": " << r->result.dump();
    return r;
  }

  std::unique_ptr<server> srv_;
  std::unique_ptr<http_server_process> http_;
  event_log log_; // outlives the client, whose handlers write to it
  interposer* tap_ = nullptr;
  std::unique_ptr<client> c_;
};

TEST_P(ClientOver, ConnectLoadsTheDeclaredLists) {
  start();
  EXPECT_TRUE(c_->server_capabilities()["tools"].value("listChanged", false));
  EXPECT_EQ(c_->server_info()["name"], "cafmcp-everything-server");
  EXPECT_TRUE(has(c_->tools(), "name", "add_tool"));
  EXPECT_TRUE(has(c_->resources(), "uri", "test://static-text"));
  EXPECT_TRUE(has(c_->resource_templates(), "uriTemplate", "test://template/{id}/data"));
  EXPECT_TRUE(has(c_->prompts(), "name", "test_simple_prompt"));
  EXPECT_EQ(c_->reloads_started(), 0u);
}

TEST_P(ClientOver, FetchesAreReturnedAndCachedAsOneObject) {
  start();
  auto read = c_->read_resource("test://static-text").get();
  ASSERT_TRUE(read->ok());
  EXPECT_EQ(read->result["contents"][0]["text"], "This is the content of the static text resource.");
  EXPECT_LE(read->started, read->finished);
  EXPECT_EQ(c_->cache().resource("test://static-text"), read);

  auto tread = c_->read_resource_template("test://template/{id}/data", {{"id", "42"}}).get();
  ASSERT_TRUE(tread->ok()) << tread->error->message;
  EXPECT_EQ(tread->expanded_uri, "test://template/42/data");
  EXPECT_EQ(c_->cache().resource_template("test://template/{id}/data"), tread);

  auto prompt = c_->get_prompt("test_prompt_with_arguments", {{"arg1", "a"}, {"arg2", "b"}}).get();
  ASSERT_TRUE(prompt->ok());
  EXPECT_EQ(c_->cache().prompt("test_prompt_with_arguments"), prompt);

  auto ok = call("test_simple_text", json::object());
  auto tool_error = c_->call_tool("test_error_handling").get();
  auto unknown = c_->call_tool("no_such_tool").get();
  EXPECT_FALSE(tool_error->success());
  EXPECT_TRUE(tool_error->ok());
  ASSERT_TRUE(unknown->error);
  EXPECT_EQ(unknown->error->code, -32602);
  EXPECT_EQ(c_->cache().tool_call_result("test_simple_text"), ok);
  EXPECT_EQ(c_->cache().tool_call_result("test_error_handling"), tool_error); // failures are kept too
  EXPECT_EQ(c_->cache().tool_call_result("no_such_tool"), unknown);

  auto missing = c_->read_resource("test://no-such-resource").get();
  EXPECT_FALSE(missing->ok());
  EXPECT_FALSE(c_->cache().resource("test://no-such-resource")); // no content: nothing cached

  // The cache is apart from the descriptor lists.
  auto tools_before = c_->tools().size();
  c_->cache().clear_all();
  EXPECT_FALSE(c_->cache().resource("test://static-text"));
  EXPECT_EQ(c_->tools().size(), tools_before);
}

TEST_P(ClientOver, OperationMetadataPatchesTheListsWithoutAReload) {
  start("both");
  auto m = log_.mark();
  call("add_tool", {{"name", "fresh"}});
  ASSERT_TRUE(log_.wait(is(client_event_kind::tools_changed, "fresh"), m));
  EXPECT_TRUE(has(c_->tools(), "name", "fresh"));
  call("fresh", json::object());
  ASSERT_TRUE(c_->cache().tool_call_result("fresh"));

  call("add_resource", {{"uri", "test://mine"}, {"name", "mine"}, {"text", "v1"}});
  ASSERT_TRUE(log_.wait(is(client_event_kind::resources_changed, "test://mine"), m));
  ASSERT_TRUE(c_->read_resource("test://mine").get()->ok());
  call("add_prompt", {{"name", "fresh_prompt"}});
  ASSERT_TRUE(log_.wait(is(client_event_kind::prompts_changed, "fresh_prompt"), m));
  EXPECT_TRUE(has(c_->prompts(), "name", "fresh_prompt"));

  m = log_.mark();
  call("remove_tool", {{"name", "fresh"}});
  call("remove_resource", {{"uri", "test://mine"}});
  ASSERT_TRUE(log_.wait(is(client_event_kind::tools_changed, "fresh"), m));
  ASSERT_TRUE(log_.wait(is(client_event_kind::resources_changed, "test://mine"), m));
  EXPECT_FALSE(has(c_->tools(), "name", "fresh"));
  EXPECT_FALSE(c_->cache().tool_call_result("fresh")); // a removed item's content leaves the cache
  EXPECT_FALSE(c_->cache().resource("test://mine"));
  EXPECT_EQ(c_->reloads_started(), 0u);
}

TEST_P(ClientOver, PlainListChangedReloadsKeepingWhatStillExists) {
  start("none");
  ASSERT_TRUE(c_->read_resource("test://static-text").get()->ok());
  auto m = log_.mark();
  call("add_resource", {{"uri", "test://mine"}, {"name", "mine"}, {"text", "v1"}});
  ASSERT_TRUE(log_.wait([&](const client_event& e) {
    return e.kind == client_event_kind::resources_changed && has(c_->resources(), "uri", "test://mine");
  }));
  // resources/list_changed also covers templates: both lists reload, once
  // each. Both are back before the next change, so none coalesces.
  ASSERT_TRUE(log_.wait(is(client_event_kind::resource_templates_changed), m));
  EXPECT_EQ(c_->reloads_started(), 2u);
  ASSERT_TRUE(c_->read_resource("test://mine").get()->ok());
  m = log_.mark();
  call("remove_resource", {{"uri", "test://mine"}});
  // The reloaded list is published once what left it is forgotten: a
  // reader that finds it gone finds its content gone too.
  ASSERT_TRUE(log_.wait(
    [&](const client_event& e) {
      return e.kind == client_event_kind::resources_changed && !has(c_->resources(), "uri", "test://mine");
    },
    m));
  EXPECT_FALSE(c_->cache().resource("test://mine"));
  EXPECT_TRUE(log_.wait(
    [](const client_event& e) {
      return e.kind == client_event_kind::cache_changed && e.key == "test://mine"
             && e.detail["stored"] == false;
    },
    m));
  EXPECT_TRUE(c_->cache().resource("test://static-text")); // still listed: still cached
  ASSERT_TRUE(log_.wait(is(client_event_kind::resource_templates_changed), m));
  EXPECT_EQ(c_->reloads_started(), 4u);
}

TEST_P(ClientOver, ABurstOfAThousandListChangedCostsTwoReloads) {
  start("none");
  tap_->hold();
  for (int batch = 0; batch < 20; ++batch) { // 50 at a time: within the server's per-session call limit
    std::vector<std::future<std::shared_ptr<const tool_call>>> calls;
    for (int i = 0; i < 50; ++i)
      calls.push_back(c_->call_tool("add_tool", {{"name", "burst_" + std::to_string(batch * 50 + i)}}));
    for (auto& f : calls)
      ASSERT_TRUE(f.get()->success());
  }
  ASSERT_TRUE(tap_->wait_held("notifications/tools/list_changed", 1000, 30s));
  tap_->release(); // all 1,000 reach the client at once
  ASSERT_TRUE(log_.wait([&](const client_event& e) {
    return e.kind == client_event_kind::tools_changed && has(c_->tools(), "name", "burst_999");
  }));
  c_->ping().get();
  // One reload for the first notification, one for all that came meanwhile.
  EXPECT_EQ(c_->reloads_started(), 2u);
  auto tools = c_->tools();
  EXPECT_EQ(std::count_if(tools.begin(), tools.end(),
                          [](const json& t) { return t.value("name", "").rfind("burst_", 0) == 0; }),
            1000);
}

TEST_P(ClientOver, AFailedReloadIsRetriedWithBackoffAndReported) {
  client_options o;
  o.initial_backoff = 5ms;
  start("none", o);
  tap_->fail_next("tools/list", 2);
  call("add_tool", {{"name", "late"}});
  auto recovered = log_.wait([&](const client_event& e) {
    return e.kind == client_event_kind::tools_changed && has(c_->tools(), "name", "late");
  });
  ASSERT_TRUE(recovered);
  EXPECT_EQ(log_.count(is(client_event_kind::reload_failed, "tools")), 2u);
  auto first = log_.wait(is(client_event_kind::reload_failed));
  EXPECT_EQ(first->detail["failures"], 1);
  EXPECT_TRUE(first->detail["retrying"]);
  EXPECT_EQ(first->detail["error"], "injected failure");
  EXPECT_EQ(c_->reloads_started(), 3u);
}

TEST_P(ClientOver, GivingUpIsReportedAndALaterNotificationStartsAgain) {
  client_options o;
  o.initial_backoff = 5ms;
  o.reload_attempts = 2;
  start("none", o);
  tap_->fail_next("tools/list", 3);
  call("add_tool", {{"name", "first"}});
  auto gave_up = log_.wait([](const client_event& e) {
    return e.kind == client_event_kind::reload_failed && e.detail["retrying"] == false;
  });
  ASSERT_TRUE(gave_up);
  EXPECT_EQ(gave_up->detail["failures"], 2);
  EXPECT_FALSE(has(c_->tools(), "name", "first"));
  call("add_tool", {{"name", "second"}}); // fails once more, then the retry lands
  ASSERT_TRUE(log_.wait([&](const client_event& e) {
    return e.kind == client_event_kind::tools_changed && has(c_->tools(), "name", "second");
  }));
  EXPECT_TRUE(has(c_->tools(), "name", "first"));
}

TEST_P(ClientOver, FollowingAKindCanBeTurnedOff) {
  client_options o;
  o.follow_list_changed.tools = false;
  start("none", o);
  auto m = log_.mark();
  call("add_tool", {{"name", "unseen"}});
  call("add_prompt", {{"name", "seen"}});
  // Both notifications travel on one stream in this order: once the prompt
  // change is in, the tools change was read (and left alone).
  ASSERT_TRUE(log_.wait([&](const client_event& e) {
    return e.kind == client_event_kind::prompts_changed && has(c_->prompts(), "name", "seen");
  }));
  EXPECT_FALSE(has(c_->tools(), "name", "unseen"));
  EXPECT_EQ(log_.count(is(client_event_kind::tools_changed), m), 0u);
  EXPECT_TRUE(has(c_->list_tools().get(), "name", "unseen")); // an explicit list still works
}

TEST_P(ClientOver, UpdatedClearsTheSubscribedResourceFromTheCache) {
  start();
  call("add_resource", {{"uri", "test://watched"}, {"name", "w"}, {"text", "v1"}});
  auto m = log_.mark();
  c_->subscribe("test://watched").get();
  EXPECT_EQ(c_->subscriptions(), std::vector<std::string>{"test://watched"});
  ASSERT_TRUE(log_.wait(is(client_event_kind::subscriptions_changed, "test://watched"), m));
  ASSERT_TRUE(c_->read_resource("test://watched").get()->ok());
  m = log_.mark();
  call("update_resource", {{"uri", "test://watched"}, {"text", "v2"}});
  auto updated = log_.wait(is(client_event_kind::resource_updated, "test://watched"), m);
  ASSERT_TRUE(updated);
  EXPECT_EQ(updated->detail["uri"], "test://watched");
  EXPECT_FALSE(c_->cache().resource("test://watched"));
  EXPECT_EQ(c_->read_resource("test://watched").get()->result["contents"][0]["text"], "v2");

  c_->unsubscribe("test://watched").get();
  EXPECT_TRUE(c_->subscriptions().empty());
  auto refused = c_->subscribe("test://never-registered");
  EXPECT_THROW(refused.get(), client_error);
  EXPECT_TRUE(c_->subscriptions().empty()); // a refusal leaves nothing behind
}

// seed 000: an update of a uri makes stale both its own read and the
// template read that expanded to it; other cached content stays.
TEST_P(ClientOver, UpdatedAlsoClearsTheTemplateReadThatExpandedToTheUri) {
  start();
  const std::string uri = "test://template/7/data", tmpl = "test://template/{id}/data";
  call("add_resource", {{"uri", uri}, {"name", "t7"}, {"text", "v1"}});
  c_->subscribe(uri).get();
  auto by_template = c_->read_resource_template(tmpl, {{"id", "7"}}).get();
  ASSERT_TRUE(by_template->ok());
  EXPECT_EQ(by_template->expanded_uri, uri);
  ASSERT_TRUE(c_->read_resource(uri).get()->ok());
  ASSERT_TRUE(c_->read_resource("test://static-text").get()->ok());
  ASSERT_TRUE(c_->cache().resource_template(tmpl));

  auto m = log_.mark();
  call("update_resource", {{"uri", uri}, {"text", "v2"}});
  ASSERT_TRUE(log_.wait(is(client_event_kind::resource_updated, uri), m));
  EXPECT_FALSE(c_->cache().resource(uri));
  EXPECT_FALSE(c_->cache().resource_template(tmpl));
  EXPECT_TRUE(c_->cache().resource("test://static-text")); // not subscribed, not stale
}

TEST_P(ClientOver, ServerRequestsReachHandlersThatMayCallTheClient) {
  client_options o;
  std::atomic<client*> self{nullptr};
  o.on_sampling = [&self](const json& params) {
    self.load()->ping().get(); // from the callback thread, while the server waits on us
    return json{
      {"role", "assistant"},
      {"content",
       {{"type", "text"}, {"text", "echo " + params["messages"][0]["content"]["text"].get<std::string>()}}},
      {"model", "test-model"}};
  };
  o.on_elicitation = [](const json& params) {
    return json{{"action", "accept"}, {"content", {{"username", "ada"}, {"email", "ada@example.com"}}}};
  };
  start("both", o);
  self = c_.get();
  auto r = call("test_sampling", {{"prompt", "hello"}});
  EXPECT_NE(r->result["content"][0]["text"].get<std::string>().find("echo hello"), std::string::npos);
  auto e = call("test_elicitation", {{"message", "who?"}});
  EXPECT_NE(e->result["content"][0]["text"].get<std::string>().find("ada@example.com"), std::string::npos);
}

// A request unanswered within request_timeout fails with a timeout; the
// server's answer that comes later is for an id nobody waits on any more and
// changes nothing. The server's answer is held back without timing tricks:
// the tool waits on our sampling handler, which waits for the timeout.
TEST_P(ClientOver, ATimedOutCallFailsAndItsLateAnswerIsIgnored) {
  client_options o;
  std::promise<void> timed_out;
  auto release = timed_out.get_future().share();
  o.on_sampling = [release](const json&) {
    release.wait();
    return json{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "late"}}}, {"model", "m"}};
  };
  // However the test ends, the handler returns (the client joins its thread).
  std::unique_ptr<std::promise<void>, void (*)(std::promise<void>*)> unblock(
    &timed_out, [](std::promise<void>* p) {
      try {
        p->set_value();
      } catch (const std::future_error&) {
      }
    });
  start("both", o);
  // The call's own limit: connect and the list loads keep the client's
  // default (30 s), so a busy machine cannot time them out instead.
  call_options short_limit;
  short_limit.timeout = 200ms;
  auto r = c_->call_tool("test_sampling", {{"prompt", "hello"}}, short_limit).get();
  ASSERT_FALSE(r->ok());
  EXPECT_EQ(r->error->code, client_error_code::timeout);
  unblock.reset();
  ASSERT_TRUE(tap_->wait_answered("tools/call", 10s)); // the late answer reached the client
  c_->ping().get();                                    // which is still fine
  auto cached = c_->cache().tool_call_result("test_sampling");
  ASSERT_TRUE(cached);
  EXPECT_FALSE(cached->ok()); // the late answer did not pass for the timed-out call's
}

// A handler that throws answers the server with a JSON-RPC error carrying
// its message: the server's tool hears why and says so; nothing hangs, and
// the client goes on serving the next request, to the same handler.
TEST_P(ClientOver, AThrowingSamplingOrElicitationHandlerIsAnsweredWithItsError) {
  client_options o;
  std::atomic<int> sampled{0};
  o.on_sampling = [&sampled](const json&) -> json {
    if (++sampled == 1)
      throw std::runtime_error("the model is offline");
    return json{{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "back"}}}, {"model", "m"}};
  };
  o.on_elicitation = [](const json&) -> json { throw std::invalid_argument("the user closed the form"); };
  start("both", o);
  auto failed = c_->call_tool("test_sampling", {{"prompt", "hello"}}).get();
  ASSERT_TRUE(failed->ok()); // the call itself succeeds: the tool reports the failure
  EXPECT_FALSE(failed->success());
  auto text = failed->result.dump();
  EXPECT_NE(text.find("sampling/createMessage failed"), std::string::npos) << text;
  EXPECT_NE(text.find("the model is offline"), std::string::npos) << text;
  auto refused = c_->call_tool("test_elicitation", {{"message", "who?"}}).get();
  EXPECT_FALSE(refused->success());
  EXPECT_NE(refused->result.dump().find("the user closed the form"), std::string::npos)
    << refused->result.dump();
  auto again = call("test_sampling", {{"prompt", "hello"}}); // the handler answers this time
  EXPECT_NE(again->result["content"][0]["text"].get<std::string>().find("back"), std::string::npos);
  EXPECT_EQ(sampled.load(), 2);
}

TEST_P(ClientOver, AServerRequestWithoutAHandlerIsAnsweredWithAnError) {
  start();
  auto refused = c_->call_tool("test_elicitation", {{"message", "who?"}}).get();
  EXPECT_FALSE(refused->success()); // the server heard "not handled" and says so, nobody hangs
  EXPECT_NE(refused->result.dump().find("elicitation/create failed"), std::string::npos);
}

TEST_P(ClientOver, CompletesATemplateVariable) {
  start();
  auto r = c_->complete({{"type", "ref/resource"}, {"uri", "test://template/{id}/data"}}, "id", "1").get();
  EXPECT_EQ(r["completion"]["values"], json::array({"1", "123"}));
}

TEST_P(ClientOver, ProgressAndLogMessagesReachTheirHandlers) {
  start();
  c_->set_log_level("debug").get();
  auto m = log_.mark();
  call("test_tool_with_logging", json::object());
  ASSERT_TRUE(log_.wait_count(is(client_event_kind::log_message), 3, m));
  std::mutex mtx;
  std::condition_variable cv;
  std::vector<json> progress;
  call_options co;
  co.on_progress = [&](const json& p) {
    std::lock_guard<std::mutex> g(mtx);
    progress.push_back(p);
    cv.notify_all();
  };
  ASSERT_TRUE(c_->call_tool("test_tool_with_progress", json::object(), co).get()->success());
  std::unique_lock<std::mutex> g(mtx);
  ASSERT_TRUE(cv.wait_for(g, 10s, [&] { return progress.size() == 3; }));
  EXPECT_EQ(progress.back()["progress"], 100);
}

TEST_P(ClientOver, CloseFailsWhatIsPendingAndClearsSubscriptions) {
  start();
  c_->subscribe("test://static-text").get();
  auto m = log_.mark();
  c_->close();
  ASSERT_TRUE(log_.wait(is(client_event_kind::closed), m));
  EXPECT_TRUE(c_->subscriptions().empty());
  ASSERT_TRUE(log_.wait(
    [](const client_event& e) {
      return e.kind == client_event_kind::subscriptions_changed && e.detail["uris"].empty();
    },
    m));
  try {
    c_->ping().get();
    ADD_FAILURE() << "a closed client answered";
  } catch (const client_error& e) {
    EXPECT_EQ(e.failure.code, client_error_code::connection_closed);
  }
}

INSTANTIATE_TEST_SUITE_P(Transports, ClientOver, ::testing::Values(via::in_process, via::stdio, via::http),
                         [](const auto& info) {
                           switch (info.param) {
                             case via::in_process: return std::string("InProcess");
                             case via::stdio: return std::string("Stdio");
                             case via::http: return std::string("Http");
                           }
                           return std::string();
                         });

TEST(Client, SubscribeIsRefusedWithoutTheCapabilityAndWithoutARoundTrip) {
  server_options so;
  so.subscriptions = false;
  server srv(so);
  everything::install_conformance_fixtures(srv);
  auto tap = std::make_unique<interposer>(make_in_process_client_transport(srv));
  auto* sent = tap.get();
  client c(std::move(tap));
  c.connect().get();
  using refusable = std::future<void> (client::*)(std::string);
  for (refusable method : {&client::subscribe, &client::unsubscribe}) {
    try {
      (c.*method)("test://static-text").get();
      ADD_FAILURE() << "went through without the capability";
    } catch (const client_error& e) {
      EXPECT_EQ(e.failure.code, client_error_code::not_supported);
      EXPECT_NE(e.failure.message.find("resources.subscribe"), std::string::npos) << e.failure.message;
    }
  }
  c.ping().get(); // the tap counts what goes out: a request that does go is seen
  EXPECT_EQ(sent->sent("ping"), 1);
  EXPECT_EQ(sent->sent("resources/subscribe"), 0);
  EXPECT_EQ(sent->sent("resources/unsubscribe"), 0);
  EXPECT_TRUE(c.subscriptions().empty());
}

// The GET stream drops while an update happens: the transport resumes it
// with Last-Event-ID and the client still hears of the update, once.
TEST(ClientHttp, AnUpdateDuringADroppedStreamArrivesAfterResumption) {
  http_server_process proc({bin("everything-server"), "--http", "--port", "0"});
  auto t = make_http_client_transport({.url = proc.url()});
  auto* http = t.get();
  client c(std::move(t));
  event_log log;
  log.attach(c);
  c.connect().get();
  ASSERT_TRUE(stream_control(*http).wait_get_stream(10s));
  ASSERT_TRUE(
    c.call_tool("add_resource", {{"uri", "test://r"}, {"name", "r"}, {"text", "v1"}}).get()->success());
  c.subscribe("test://r").get();
  ASSERT_TRUE(c.read_resource("test://r").get()->ok());
  stream_control(*http).pause_get_stream();
  ASSERT_TRUE(c.call_tool("update_resource", {{"uri", "test://r"}, {"text", "v2"}}).get()->success());
  stream_control(*http).resume_get_stream();
  ASSERT_TRUE(log.wait(is(client_event_kind::resource_updated, "test://r")));
  EXPECT_FALSE(c.cache().resource("test://r"));
  c.ping().get();
  EXPECT_EQ(log.count(is(client_event_kind::resource_updated, "test://r")), 1u);
  EXPECT_EQ(stream_control(*http).resumptions(), 1);
}

// The failure is the server's own, not an injected one: flaky_list_server.mjs
// (a real process) answers its 2nd and 3rd tools/list with an error. The
// reload after a plain list_changed fails twice, backs off, and then lands.
TEST(Client, ARealServerFailureOfTheReloadIsRetriedUntilItLands) {
  client_options o;
  o.initial_backoff = 5ms;
  client c(make_stdio_client_transport(
             {.argv = {"node", std::string(CAFMCP_CLIENT_TEST_DIR) + "/flaky_list_server.mjs", "2"}}),
           o);
  event_log log;
  log.attach(c);
  c.connect().get();
  ASSERT_TRUE(log.wait(is(client_event_kind::tools_changed)));
  ASSERT_TRUE(has(c.tools(), "name", "add_tool"));
  auto m = log.mark();
  ASSERT_TRUE(c.call_tool("add_tool", {{"name", "late"}}).get()->success());
  ASSERT_TRUE(log.wait(
    [&](const client_event& e) {
      return e.kind == client_event_kind::tools_changed && has(c.tools(), "name", "late");
    },
    m));
  EXPECT_EQ(log.count(is(client_event_kind::reload_failed, "tools"), m), 2u);
  auto first = log.wait(is(client_event_kind::reload_failed, "tools"), m);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->detail["failures"], 1);
  EXPECT_TRUE(first->detail["retrying"]);
  EXPECT_EQ(first->detail["error"], "tools/list failure 1 of 2");
  EXPECT_TRUE(has(c.tools(), "name", "add_tool")); // the failures never emptied the list
}

TEST(Client, AServerThatDiesFailsThePendingRequests) {
  auto t = make_stdio_client_transport({.argv = {bin("everything-server"), "--stdio"},
                                        .child_stderr = stdio_client_options::stderr_mode::discard});
  int pid = t->pid();
  client c(std::move(t));
  event_log log;
  log.attach(c);
  c.connect().get();
  ::kill(pid, SIGKILL);
  ASSERT_TRUE(log.wait(is(client_event_kind::closed)));
  EXPECT_THROW(c.list_tools().get(), client_error);
}

// seed 003's capability detection against a server that breaks the rules on
// purpose (test/check/misbehaving_server.mjs, a real process): it sends
// tools/list_changed (with params null) without declaring tools.listChanged,
// and resources/updated to sessions that never subscribed. The client reloads
// nothing it was not promised and raises no update for a uri it did not ask for.
TEST(ClientAgainstAMisbehavingServer, IgnoresUndeclaredListChangedAndUnaskedUpdates) {
  client_options o;
  o.follow_list_changed.resources = false; // its resources/list is not served: keep retries out of the way
  auto tap = std::make_unique<interposer>(
    make_stdio_client_transport({.argv = {"node", CAFMCP_CHECK_TEST_DIR "/misbehaving_server.mjs"},
                                 .child_stderr = stdio_client_options::stderr_mode::discard}));
  auto* sent = tap.get();
  client c(std::move(tap), o);
  event_log log;
  log.attach(c);
  c.connect().get();
  ASSERT_FALSE(c.server_capabilities()["tools"].value("listChanged", false));
  const int lists_at_connect = sent->sent("tools/list");
  auto m = log.mark();

  // The notification precedes the call's answer on the one stdout stream, and
  // the client handles its inbound messages in order: once the call is
  // answered, the notification was seen.
  ASSERT_TRUE(c.call_tool("add_tool", {{"name", "x"}}).get()->success());
  c.ping().get();
  EXPECT_EQ(sent->sent("tools/list"), lists_at_connect);
  EXPECT_EQ(c.reloads_started(), 0u);
  EXPECT_EQ(log.count(is(client_event_kind::tools_changed), m), 0u);

  ASSERT_TRUE(c.call_tool("add_resource", {{"uri", "test://a"}}).get()->success());
  ASSERT_TRUE(c.call_tool("update_resource", {{"uri", "test://a"}}).get()->success()); // updated, unasked
  c.ping().get();
  EXPECT_EQ(log.count(is(client_event_kind::resource_updated), m), 0u);

  c.subscribe("test://a").get(); // now asked for: the same update is heard
  ASSERT_TRUE(c.call_tool("update_resource", {{"uri", "test://a"}}).get()->success());
  ASSERT_TRUE(log.wait(is(client_event_kind::resource_updated, "test://a"), m));
}

// Templates have no list_changed of their own: resources/list_changed covers
// them. A new template joins the client's list, a removed one leaves it and
// takes its cached template read along; with cafmcp's operation metadata
// without a reload, without it by reloading. (In-process: the everything-
// server has no template mutation tool, the server API does it here.)
TEST(ClientInProcess, TemplatesFollowResourcesListChanged) {
  for (auto metadata : {change_metadata::both, change_metadata::none}) {
    SCOPED_TRACE(metadata == change_metadata::both ? "with metadata" : "without metadata");
    server_options so;
    so.list_changed_metadata = metadata;
    server srv(so);
    everything::install_conformance_fixtures(srv);
    client c(make_in_process_client_transport(srv));
    event_log log;
    log.attach(c);
    c.connect().get();
    const std::string kept = "test://template/{id}/data", added = "test://other/{x}";
    ASSERT_TRUE(c.read_resource_template(kept, {{"id", "1"}}).get()->ok());
    ASSERT_TRUE(c.cache().resource_template(kept));

    resource_template t;
    t.uri_template = added;
    t.name = "other";
    t.reader = [](const std::string& uri, request_context&) {
      return std::vector<resource_contents>{resource_contents::make_text(uri, "other", "text/plain")};
    };
    // Without metadata each change reloads both lists (resources and
    // templates) once; the test waits for both before the next change, so
    // no two notifications coalesce into one reload.
    std::size_t reloads_each = metadata == change_metadata::both ? 0 : 2;
    auto m = log.mark();
    ASSERT_TRUE(srv.add_resource_template(t).get());
    ASSERT_TRUE(log.wait([&](const client_event& e) {
      return e.kind == client_event_kind::resource_templates_changed
             && has(c.resource_templates(), "uriTemplate", added);
    }));
    if (reloads_each)
      ASSERT_TRUE(log.wait(is(client_event_kind::resources_changed), m));
    EXPECT_EQ(c.reloads_started(), reloads_each);
    EXPECT_TRUE(c.cache().resource_template(kept)); // still listed: still cached

    m = log.mark();
    ASSERT_TRUE(srv.remove_resource_template(kept).get());
    ASSERT_TRUE(log.wait([&](const client_event& e) {
      return e.kind == client_event_kind::resource_templates_changed
             && !has(c.resource_templates(), "uriTemplate", kept);
    }));
    if (reloads_each)
      ASSERT_TRUE(log.wait(is(client_event_kind::resources_changed), m));
    EXPECT_FALSE(c.cache().resource_template(kept));
    EXPECT_EQ(c.reloads_started(), 2 * reloads_each);
  }
}

// Removing an event handler waits for a call of it already under way on
// the callback thread, so what the handler captured may go as soon as
// reset() returns. (Without the wait, a test's event log destroyed before
// its client was written to after it died: found by the ASan lane.)
TEST(ClientInProcess, ARemovedHandlerIsNotRunningOnceResetReturns) {
  server srv;
  everything::install_conformance_fixtures(srv);
  client c(make_in_process_client_transport(srv));
  c.connect().get();
  std::promise<void> entered, release, resetting;
  auto entered_f = entered.get_future(), resetting_f = resetting.get_future();
  auto release_f = release.get_future().share();
  std::atomic<bool> handler_done{false}, once{false};
  auto sub = c.on(client_event_kind::tools_changed, [&](const client_event&) {
    if (once.exchange(true))
      return;
    entered.set_value();
    release_f.wait();
    handler_done = true;
  });
  tool t;
  t.name = "appears";
  t.input_schema = {{"type", "object"}};
  t.handler = [](const json&, request_context&) { return tool_result::text("ok"); };
  ASSERT_TRUE(srv.add_tool(t).get());
  ASSERT_EQ(entered_f.wait_for(10s), std::future_status::ready);
  bool done_when_reset_returned = false;
  std::thread remover([&] {
    resetting.set_value();
    sub.reset();
    done_when_reset_returned = handler_done;
  });
  resetting_f.wait();
  release.set_value();
  remover.join();
  EXPECT_TRUE(done_when_reset_returned);
}

// roots/list from a server's handler reaches on_roots (the client
// declared the capability because the handler is set); a handler that
// throws, or none at all, is a JSON-RPC error the handler sees.
TEST(ClientInProcess, RootsRequestsReachTheRootsHandler) {
  server srv;
  tool t;
  t.name = "roots";
  t.description = "lists the client's roots";
  t.input_schema = {{"type", "object"}};
  t.handler = [](const json&, request_context& ctx) {
    if (!ctx.client_capabilities().contains("roots"))
      return tool_result::error("no roots capability declared");
    try {
      return tool_result::text(ctx.request("roots/list", json::object()).dump());
    } catch (const client_request_error& e) {
      return tool_result::error(std::string("roots/list failed: ") + e.what());
    }
  };
  ASSERT_TRUE(srv.add_tool(t).get());
  const json roots = {{"roots", {{{"uri", "file:///work/project"}, {"name", "project"}}}}};
  std::atomic<int> asked{0};
  client_options o;
  o.on_roots = [&](const json&) {
    if (++asked == 2)
      throw std::runtime_error("roots are being rescanned");
    return roots;
  };
  client c(make_in_process_client_transport(srv), o);
  c.connect().get();
  auto listed = c.call_tool("roots").get();
  ASSERT_TRUE(listed->success()) << listed->result.dump();
  EXPECT_EQ(json::parse(listed->result["content"][0]["text"].get<std::string>()), roots);
  auto failed = c.call_tool("roots").get();
  EXPECT_FALSE(failed->success());
  EXPECT_NE(failed->result.dump().find("roots are being rescanned"), std::string::npos)
    << failed->result.dump();
  EXPECT_EQ(asked.load(), 2);

  client without(make_in_process_client_transport(srv));
  without.connect().get();
  auto undeclared = without.call_tool("roots").get();
  EXPECT_FALSE(undeclared->success());
  EXPECT_NE(undeclared->result.dump().find("no roots capability declared"), std::string::npos);
}

// max_list_pages bounds one list call: past it the pages fetched so far
// are the answer (a server whose cursor never ends cannot keep the client
// looping); within it every page is followed.
TEST(ClientInProcess, AListStopsAtMaxListPages) {
  server_options so;
  so.page_size = 2;
  server srv(so);
  for (int i = 0; i < 7; ++i) {
    tool t;
    t.name = "t" + std::to_string(i);
    t.input_schema = {{"type", "object"}};
    t.handler = [](const json&, request_context&) { return tool_result::text("ok"); };
    ASSERT_TRUE(srv.add_tool(t).get());
  }
  for (std::size_t pages : {1u, 3u, 4u, 1000u}) {
    SCOPED_TRACE("max_list_pages " + std::to_string(pages));
    client_options o;
    o.max_list_pages = pages;
    auto tap = std::make_unique<interposer>(make_in_process_client_transport(srv));
    auto* sent = tap.get();
    client c(std::move(tap), o);
    c.connect().get();
    auto before = sent->sent("tools/list"); // connect's own load
    auto tools = c.list_tools().get();
    EXPECT_EQ(tools.size(), std::min<std::size_t>(7, 2 * pages));
    EXPECT_EQ(sent->sent("tools/list") - before, static_cast<int>(std::min<std::size_t>(4, pages)));
    EXPECT_EQ(c.tools().size(), tools.size()); // the client's copy is what it got
  }
}

} // namespace
} // namespace cafmcp::test

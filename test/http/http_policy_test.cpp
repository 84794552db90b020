// Which requests reach MCP at all, without a socket.
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "foundation/ascii_case.hpp"
#include "streamable_http/auth_challenge.hpp"
#include "streamable_http/event_store.hpp"
#include "streamable_http/request_facts.hpp"
#include "streamable_http/request_policy.hpp"
#include "streamable_http/sse.hpp"
#include "streamable_http/stream_mark.hpp"

namespace cafmcp::http {
namespace {

// A verifier these pure tests never call: auth_surface only asks whether
// one is set.
std::shared_ptr<auth::token_verifier> auth_verifier_stub() {
  struct never : auth::token_verifier {
    auth::verdict verify(std::string_view) override { return auth::verdict::refuse("unused"); }
  };
  return std::make_shared<never>();
}

request_facts post(std::string_view host = "127.0.0.1:3000") {
  return {
    "POST",       "/mcp",      host, std::nullopt, "application/json, text/event-stream", "application/json",
    std::nullopt, std::nullopt};
}

TEST(RequestPolicy, AWellFormedPostPasses) {
  auto p = request_policy::from({}, 3000);
  EXPECT_FALSE(p.check(post()));
  EXPECT_FALSE(p.check(post("localhost:3000")));
  auto reversed = post();
  reversed.accept = "text/event-stream, application/json";
  EXPECT_FALSE(p.check(reversed));
}

TEST(RequestPolicy, EachRefusalHasItsStatus) {
  auto p = request_policy::from({}, 3000);
  auto with = [&](auto change) {
    auto f = post();
    change(f);
    auto r = p.check(f);
    return r ? r->status : 0;
  };
  EXPECT_EQ(with([](auto& f) { f.target = "/other"; }), 404);
  EXPECT_EQ(with([](auto& f) { f.host = "evil.example.com"; }), 403);
  EXPECT_EQ(with([](auto& f) { f.host = std::nullopt; }), 403);
  EXPECT_EQ(with([](auto& f) { f.origin = "http://evil.example.com"; }), 403);
  EXPECT_EQ(with([](auto& f) { f.origin = "http://localhost:3000"; }), 0);
  EXPECT_EQ(with([](auto& f) { f.method = "PUT"; }), 405);
  EXPECT_EQ(with([](auto& f) { f.accept = "application/json"; }), 406);
  EXPECT_EQ(with([](auto& f) { f.content_type = "text/plain"; }), 415);
  // A POST's version is judged with its body (a stateless request gets its
  // revision's error, with its id): see StatelessPolicy.
  EXPECT_EQ(with([](auto& f) {
              f.method = "GET";
              f.accept = "text/event-stream";
              f.protocol_version = "1999-01-01";
            }),
            400);
  EXPECT_EQ(with([](auto& f) { f.protocol_version = "1999-01-01"; }), 0);
  EXPECT_EQ(with([](auto& f) { f.protocol_version = "2025-03-26"; }), 0);
  EXPECT_EQ(with([](auto& f) {
              f.method = "GET";
              f.accept = "application/json";
            }),
            406);
}

TEST(RequestPolicy, AcceptIsReadAsMediaRanges) {
  auto p = request_policy::from({}, 3000);
  auto status = [&](std::string_view method, std::string_view accept) {
    auto f = post();
    f.method = method;
    f.accept = accept;
    auto r = p.check(f);
    return r ? r->status : 0;
  };
  EXPECT_EQ(status("POST", "Application/JSON ,Text/Event-Stream"), 0);
  EXPECT_EQ(status("POST", "application/json;q=0.9, text/event-stream;q=0.5"), 0);
  EXPECT_EQ(status("POST", "*/*"), 0);
  EXPECT_EQ(status("POST", "application/*, text/*"), 0);
  EXPECT_EQ(status("POST", "application/json-seq, text/event-stream"), 406);
  EXPECT_EQ(status("POST", "application/json, text/event-stream;q=0"), 406);
  EXPECT_EQ(status("POST", "text/event-stream"), 406);
  EXPECT_EQ(status("GET", "text/*"), 0);
  EXPECT_EQ(status("GET", "text/html"), 406);
  // Read once for both types: a range refused with q=0 admits neither, a
  // later range may still admit one, and either order of the two counts.
  EXPECT_EQ(status("POST", "text/event-stream;q=0, text/*, application/json"), 0);
  EXPECT_EQ(status("POST", "*/*;q=0, application/json"), 406);
  EXPECT_EQ(status("POST", "text/event-stream, application/json"), 0);
  EXPECT_EQ(status("POST", "text/event-stream, text/event-stream"), 406);
}

TEST(AuthChallenge, TheBearerTokenIsReadCaseInsensitivelyAndNothingElseIsOne) {
  EXPECT_TRUE(ascii_iequals("Bearer ", "bEARER "));
  EXPECT_FALSE(ascii_iequals("Bearer", "Bearer "));
  EXPECT_EQ(bearer_token_of("Bearer abc.def"), "abc.def");
  EXPECT_EQ(bearer_token_of("bearer  abc "), "abc");
  EXPECT_EQ(bearer_token_of("BEARER x"), "x");
  EXPECT_FALSE(bearer_token_of(std::nullopt));
  EXPECT_FALSE(bearer_token_of("Bearer "));
  EXPECT_FALSE(bearer_token_of("Basic dXNlcjpwYXNz"));
  EXPECT_FALSE(bearer_token_of("Bearerabc"));
}

TEST(AuthChallenge, ChallengesNameTheMetadataScopesAndError) {
  http_options o;
  o.token_verifier = auth_verifier_stub();
  o.protected_resource = auth::protected_resource{"https://mcp.example.com/mcp/", {"https://as.example.com"},
                                                  {"mcp:read", "mcp:admin"}, {"mcp:read"}, std::nullopt, std::nullopt};
  auto a = auth_surface::from(o);
  ASSERT_TRUE(a.enabled());
  const std::string md = "resource_metadata=\"https://mcp.example.com/.well-known/oauth-protected-resource/mcp\"";
  EXPECT_EQ(a.challenge(""), "WWW-Authenticate: Bearer scope=\"mcp:read\", " + md + "\r\n");
  EXPECT_EQ(a.challenge("invalid_token", "token \"expired\"\n"),
            "WWW-Authenticate: Bearer error=\"invalid_token\", error_description=\"token expired\", " + md + "\r\n");
  EXPECT_EQ(a.challenge("insufficient_scope", "", {"mcp:admin", "x"}),
            "WWW-Authenticate: Bearer error=\"insufficient_scope\", scope=\"mcp:admin x\", " + md + "\r\n");
  EXPECT_TRUE(a.is_metadata_path("/.well-known/oauth-protected-resource"));
  EXPECT_TRUE(a.is_metadata_path("/.well-known/oauth-protected-resource/mcp"));
  EXPECT_FALSE(a.is_metadata_path("/.well-known/oauth-protected-resource/other"));
  auto doc = json::parse(a.metadata_document());
  EXPECT_EQ(doc["resource"], "https://mcp.example.com/mcp/");
  EXPECT_EQ(doc["authorization_servers"], json::array({"https://as.example.com"}));
  EXPECT_EQ(doc["scopes_supported"], json::array({"mcp:read", "mcp:admin"}));
  EXPECT_EQ(doc["bearer_methods_supported"], json::array({"header"}));
  // A static token alone: a bare challenge, no metadata.
  http_options s;
  s.token_verifier = auth_verifier_stub();
  auto bare = auth_surface::from(s);
  EXPECT_EQ(bare.challenge(""), "WWW-Authenticate: Bearer\r\n");
  EXPECT_FALSE(bare.is_metadata_path("/.well-known/oauth-protected-resource"));
}

TEST(AuthChallenge, OnlyAnInsufficientScopeAnswerNamesScopes) {
  EXPECT_EQ(insufficient_scopes_in(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32030,"message":"m","data":{"requiredScopes":["a","b"]}}})"),
            (std::vector<std::string>{"a", "b"}));
  EXPECT_FALSE(insufficient_scopes_in(R"({"jsonrpc":"2.0","id":1,"result":{"note":"-32030"}})"));
  EXPECT_FALSE(insufficient_scopes_in(R"({"jsonrpc":"2.0","id":1,"error":{"code":-32602,"message":"-32030"}})"));
}

TEST(EventStore, ReplaysExactlyWhatFollowsAndSaysGoneWhenDiscarded) {
  event_store s(3, std::chrono::seconds(60));
  for (int i = 0; i < 5; ++i)
    s.append(std::make_shared<const std::string>(std::to_string(i)));
  auto after3 = s.after(3);
  ASSERT_TRUE(after3);
  ASSERT_EQ(after3->size(), 2u);
  EXPECT_EQ(*(*after3)[0].data, "3");
  EXPECT_EQ((*after3)[1].seq, 5u);
  EXPECT_TRUE(s.after(2));  // 3,4,5 are kept
  EXPECT_FALSE(s.after(1)); // 2 was discarded
  EXPECT_FALSE(s.after(9)); // never issued
}

TEST(EventStore, DiscardsByBytes) {
  event_store s(100, std::chrono::seconds(60), 10);
  for (auto text : {"aaaa", "bbbb", "cccc"}) // 12 bytes: the first goes
    s.append(std::make_shared<const std::string>(text));
  EXPECT_EQ(s.size(), 2u);
  EXPECT_EQ(s.bytes(), 8u);
  EXPECT_FALSE(s.after(0));
  ASSERT_TRUE(s.after(1));
  auto kept = s.kept_after(0); // gaps and all
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0].seq, 2u);
}

TEST(EventStore, DiscardsByAge) {
  event_store s(100, std::chrono::seconds(10));
  auto t0 = event_store::clock::now();
  s.append(std::make_shared<const std::string>("old"), t0);
  s.append(std::make_shared<const std::string>("new"), t0 + std::chrono::seconds(20));
  EXPECT_FALSE(s.after(0, t0 + std::chrono::seconds(21)));
  EXPECT_TRUE(s.after(1, t0 + std::chrono::seconds(21)));
}

// The oldest event's time is kept apart from the events: after the oldest
// goes, the next one is aged by its own time, not its predecessor's.
TEST(EventStore, AgesEachEventByItsOwnTime) {
  event_store s(100, std::chrono::seconds(10));
  auto t0 = event_store::clock::now();
  s.append(std::make_shared<const std::string>("first"), t0);
  s.append(std::make_shared<const std::string>("second"), t0 + std::chrono::seconds(8));
  auto kept = s.after(1, t0 + std::chrono::seconds(12)); // the first is 12 s old, the second 4 s
  ASSERT_TRUE(kept);
  ASSERT_EQ(kept->size(), 1u);
  EXPECT_EQ((*kept)[0].seq, 2u);
  EXPECT_EQ(s.size(), 1u);
  EXPECT_FALSE(s.after(1, t0 + std::chrono::seconds(19))); // now the second is 11 s old: gone
  EXPECT_EQ(s.size(), 0u);
  s.append(std::make_shared<const std::string>("third"), t0 + std::chrono::seconds(30));
  EXPECT_TRUE(s.after(2, t0 + std::chrono::seconds(31))); // an emptied history ages its next event afresh
}

// What one event of a 4-byte frame counts against a budget: the event, its
// frame and its slot in the budget's order log.
constexpr std::size_t cost_of_4 = sizeof(event_store::event) + 4 + sizeof(void*);

TEST(EventStore, HistoriesSharingABudgetLoseTheOldestEventOfAnyFirst) {
  auto budget = std::make_shared<history_budget>(3 * cost_of_4);
  auto frame_of = [](const char* text) { return std::make_shared<const std::string>(text); };
  {
    event_store a(100, std::chrono::seconds(60), 1000, budget);
    event_store b(100, std::chrono::seconds(60), 1000, budget);
    a.append(frame_of("a1__"));
    b.append(frame_of("b1__"));
    a.append(frame_of("a2__"));
    EXPECT_EQ(budget->discarded(), 0u);
    b.append(frame_of("b2__")); // a1 is the oldest of the four
    EXPECT_EQ(budget->discarded(), 1u);
    EXPECT_FALSE(a.after(0));
    ASSERT_TRUE(a.after(1));
    EXPECT_TRUE(b.after(0));
    b.append(frame_of("b3__")); // then b1, then a2
    b.append(frame_of("b4__"));
    EXPECT_EQ(a.size(), 0u);
    EXPECT_EQ(b.size(), 3u);
    EXPECT_FALSE(b.after(0));
    ASSERT_TRUE(b.after(1));
    EXPECT_EQ(b.after(1)->size(), 3u);
    EXPECT_EQ(budget->bytes(), 3 * cost_of_4);
    a.append(frame_of("a3__")); // a history emptied by the budget takes events again
    EXPECT_EQ(a.size(), 1u);
    EXPECT_EQ(b.size(), 2u);
  }
  EXPECT_EQ(budget->bytes(), 0u); // a history gone gives its bytes back
  event_store c(100, std::chrono::seconds(60), 1000, budget);
  c.append(frame_of("c1__"));
  c.clear();
  EXPECT_EQ(budget->bytes(), 0u);
  EXPECT_FALSE(c.after(0));
}

// A stream gone quiet keeps its last event while a busy one discards its
// own by its count: the order log past the quiet one's event grows (each
// slot counted), and the budget, not unbounded memory, ends it.
TEST(EventStore, AQuietHistorysOldEventGoesOnceTheLogPastItFillsTheBudget) {
  constexpr std::size_t budget_bytes = 1024;
  auto budget = std::make_shared<history_budget>(budget_bytes);
  auto frame = std::make_shared<const std::string>("xxxx");
  event_store quiet(100, std::chrono::seconds(60), 1000, budget);
  event_store busy(2, std::chrono::seconds(60), 1000, budget);
  quiet.append(frame);
  std::size_t appended = 0;
  while (quiet.size() == 1 && appended < 10'000) {
    busy.append(frame);
    ++appended;
    ASSERT_LE(budget->bytes(), budget_bytes);
    EXPECT_LE(busy.size(), 2u);
  }
  EXPECT_EQ(quiet.size(), 0u);
  EXPECT_FALSE(quiet.after(0)); // gone, and said so
  EXPECT_EQ(budget->discarded(), 1u);
  // It went when the slots since it, 8 bytes each, filled what its and the
  // busy history's kept events left of the budget.
  auto kept = 3 * (sizeof(event_store::event) + 4);
  EXPECT_EQ(appended, (budget_bytes - kept) / sizeof(void*));
  EXPECT_EQ(budget->bytes(), 2 * cost_of_4); // the log is the busy history's two slots again
}

// Histories sharing a budget against a model of what they must keep: each
// its newest events within its own count, and over the budget the oldest
// event of any of them discarded first. Random appends, clears and
// histories replaced, 8 histories, 4,000 steps, a fixed seed.
TEST(EventStore, HistoriesSharingABudgetKeepWhatAModelKeeps) {
  constexpr std::size_t histories = 8, frame_bytes = 4, budget_events = 12;
  constexpr std::size_t cost = sizeof(event_store::event) + frame_bytes, slot = sizeof(void*);
  constexpr std::size_t budget_bytes = budget_events * (cost + slot);
  auto budget = std::make_shared<history_budget>(budget_bytes);
  auto frame = std::make_shared<const std::string>(frame_bytes, 'x');
  std::mt19937 rng(2026);
  std::vector<std::unique_ptr<event_store>> stores(histories);
  std::vector<std::size_t> max_events(histories);
  std::vector<std::deque<std::uint64_t>> model(histories); // the orders each must keep
  std::uint64_t next_order = 1, discarded = 0, total = 0;
  auto oldest_history = [&] {
    std::size_t oldest = histories;
    for (std::size_t h = 0; h < histories; ++h)
      if (!model[h].empty() && (oldest == histories || model[h].front() < model[oldest].front()))
        oldest = h;
    return oldest;
  };
  auto fresh = [&](std::size_t i) {
    max_events[i] = 2 + rng() % 5;
    stores[i] = std::make_unique<event_store>(max_events[i], std::chrono::seconds(3600), 1 << 20, budget);
    total -= model[i].size();
    model[i].clear();
  };
  for (std::size_t i = 0; i < histories; ++i)
    fresh(i);
  for (int step = 0; step < 4000; ++step) {
    auto i = rng() % histories;
    auto what = rng() % 100;
    if (what < 3) {
      fresh(i);
    } else if (what < 6) {
      stores[i]->clear();
      total -= model[i].size();
      model[i].clear();
    } else {
      stores[i]->append(frame);
      model[i].push_back(next_order++);
      ++total;
      if (model[i].size() > max_events[i]) {
        model[i].pop_front();
        --total;
      }
      // Over the budget (kept events, and the log's slots from the oldest
      // kept event on) the oldest kept event of any goes.
      while (total > 0
             && total * cost + (next_order - model[oldest_history()].front()) * slot > budget_bytes) {
        model[oldest_history()].pop_front();
        --total;
        ++discarded;
      }
    }
    auto span = total ? next_order - model[oldest_history()].front() : 0;
    for (std::size_t h = 0; h < histories; ++h) {
      std::vector<std::uint64_t> kept;
      for (auto& e : stores[h]->kept_after(0))
        kept.push_back(e.order);
      ASSERT_EQ(kept, std::vector<std::uint64_t>(model[h].begin(), model[h].end())) << "step " << step;
    }
    ASSERT_EQ(budget->bytes(), total * cost + span * slot) << "step " << step;
    ASSERT_EQ(budget->discarded(), discarded) << "step " << step;
  }
  EXPECT_GT(discarded, 500u); // the budget, not only each history's count, did the discarding
  stores.clear();
  EXPECT_EQ(budget->bytes(), 0u);
}

TEST(EventIds, EncodeTheirStream) {
  std::uint64_t stream = 0, seq = 0;
  EXPECT_TRUE(parse_event_id(event_id(4, 17), stream, seq));
  EXPECT_EQ(stream, 4u);
  EXPECT_EQ(seq, 17u);
  EXPECT_FALSE(parse_event_id("4-", stream, seq));
  EXPECT_FALSE(parse_event_id("x-1", stream, seq));
  EXPECT_FALSE(parse_event_id("12", stream, seq));
}

TEST(EventIds, AClusteredStreamsIdsCarryTheLogMarkAndOrderAsTheLogDoes) {
  stream_mark m{{1732000000123, 4, 1}, 2};
  EXPECT_EQ(m.text(), "L1732000000123-4.1.2");
  EXPECT_EQ(stream_mark::parse(m.text()), m);
  EXPECT_LT(stream_mark({{5, 0, 1}, 0}), stream_mark({{5, 0, 1}, 1})); // own messages after the mark
  EXPECT_LT(stream_mark({{5, 0, 1}, 9}), stream_mark({{5, 0, 2}, 0}));
  EXPECT_LT(stream_mark({{5, 0, 9}, 9}), stream_mark({{5, 1, 0}, 0}));
  for (auto bad : {"", "L", "0-5", "L1-2.3", "L1-2.3.4.5", "L1-2.x.4", "L-2.3.4", "l1-2.3.4"})
    EXPECT_FALSE(stream_mark::parse(bad)) << bad;
}

// write() keeps the last text it wrote on a thread: a mark that differs
// from it in any one field, or that comes back after another, is written
// afresh, and the same mark again is the same text.
TEST(EventIds, EachMarkIsWrittenAsItselfWhateverWasWrittenBefore) {
  const std::vector<stream_mark> marks{
    {{1732000000123, 4, 1}, 2}, {{1732000000123, 4, 1}, 2}, {{1732000000124, 4, 1}, 2}, {{1732000000124, 5, 1}, 2},
    {{1732000000124, 5, 0}, 2}, {{1732000000124, 5, 0}, 0}, {{1732000000123, 4, 1}, 2}, {{0, 0, 0}, 0}};
  for (auto& m : marks) {
    char out[stream_mark::max_text];
    auto text = std::string(out, m.write(out));
    EXPECT_EQ(stream_mark::parse(text), m) << text;
  }
  EXPECT_EQ(stream_mark({{0, 0, 0}, 0}).text(), "L0-0.0.0");
  EXPECT_EQ(stream_mark({{1, 22, 333}, 4444}).text(), "L1-22.333.4444");
}

} // namespace
} // namespace cafmcp::http

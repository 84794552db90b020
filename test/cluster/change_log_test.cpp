// The change log's contract, on Redis (a real redis-server) and in memory
// alike, and the writer and reader threads around it: order, positions,
// blocking reads, an outage that delays and loses nothing, an outbox that
// overflows into one resync.
#include <atomic>
#include <condition_variable>
#include <mutex>

#include <gtest/gtest.h>

#include "cluster/log_backend.hpp"
#include "cluster/log_reader.hpp"
#include "cluster/log_writer.hpp"
#include "redis_process.hpp"

namespace cafmcp::cluster {
namespace {

using namespace std::chrono_literals;

// What a reader handed on, with a bounded wait for more.
class collected {
public:
  void add(std::vector<log_entry>& entries, bool history) {
    std::lock_guard<std::mutex> g(mtx_);
    for (auto& e : entries)
      (history ? history_ : live_).push_back(e.body);
    more_.notify_all();
  }
  bool wait_live(std::size_t n, std::chrono::milliseconds limit = 10s) {
    std::unique_lock<std::mutex> g(mtx_);
    return more_.wait_for(g, limit, [&] { return live_.size() >= n; });
  }
  bool wait_for(const std::string& body, std::chrono::milliseconds limit = 20s) {
    std::unique_lock<std::mutex> g(mtx_);
    return more_.wait_for(g, limit,
                          [&] { return std::find(live_.begin(), live_.end(), body) != live_.end(); });
  }
  std::vector<std::string> live() {
    std::lock_guard<std::mutex> g(mtx_);
    return live_;
  }
  std::vector<std::string> history() {
    std::lock_guard<std::mutex> g(mtx_);
    return history_;
  }

private:
  std::mutex mtx_;
  std::condition_variable more_;
  std::vector<std::string> live_, history_;
};

std::vector<std::string> numbered(const std::string& prefix, int n) {
  std::vector<std::string> v;
  for (int i = 1; i <= n; ++i)
    v.push_back(prefix + std::to_string(i));
  return v;
}

struct log_kind {
  const char* name;
  bool redis;
};

class ChangeLog : public ::testing::TestWithParam<log_kind> {
protected:
  void SetUp() override {
    static int n = 0;
    if (GetParam().redis) {
      redis_ = std::make_unique<test::redis_process>();
      settings_.url = redis_->url();
    } else {
      settings_.url = "memory://change-log-test-" + std::to_string(++n);
    }
    settings_.timeout = 1000ms;
    connect_ = connector_for(settings_);
  }
  std::unique_ptr<test::redis_process> redis_;
  log_settings settings_;
  log_connector connect_;
};

TEST_P(ChangeLog, EntriesComeBackInOrderAfterAnyPosition) {
  auto w = connect_();
  auto r = connect_();
  EXPECT_EQ(r->newest(), log_position{});
  auto bodies = numbered("e", 5);
  ASSERT_EQ(w->append(bodies), 5u);
  auto all = r->read(log_position{}, 100, 0ms);
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) {
    EXPECT_EQ((*all)[i].body, bodies[i]);
    if (i > 0) {
      EXPECT_LT((*all)[i - 1].position, (*all)[i].position);
    }
  }
  EXPECT_EQ(r->newest(), all->back().position);
  auto rest = r->read((*all)[2].position, 100, 0ms);
  ASSERT_TRUE(rest);
  ASSERT_EQ(rest->size(), 2u);
  EXPECT_EQ((*rest)[0].body, "e4");
  auto two = r->read(log_position{}, 2, 0ms);
  ASSERT_TRUE(two);
  EXPECT_EQ(two->size(), 2u);
}

TEST_P(ChangeLog, AReadWaitsForTheNextEntryAndAnInterruptEndsIt) {
  auto r = connect_();
  auto none = r->read(log_position{}, 10, 50ms);
  ASSERT_TRUE(none);
  EXPECT_TRUE(none->empty());
  std::thread appender([&] {
    auto w = connect_();
    std::vector<std::string> one{"late"};
    w->append(one);
  });
  auto got = r->read(log_position{}, 10, 10s);
  appender.join();
  ASSERT_TRUE(got);
  ASSERT_EQ(got->size(), 1u);
  EXPECT_EQ(got->front().body, "late");

  std::thread interrupter([&] { r->interrupt(); });
  auto after = r->read(got->front().position, 10, 30s); // returns at the interrupt, not in 30 s
  interrupter.join();
  EXPECT_FALSE(after);
}

TEST_P(ChangeLog, TheWriterKeepsOrderAndTheReaderSplitsHistoryFromLive) {
  auto w = connect_();
  auto old = numbered("old", 3);
  ASSERT_EQ(w->append(old), 3u);
  link_health health;
  collected seen;
  log_reader reader(
    connect_, {}, [&](std::vector<log_entry>& e, bool h) { seen.add(e, h); }, health, connect_()->newest());
  log_writer writer(
    connect_, {}, [](std::uint64_t s) { return "resync" + std::to_string(s); }, health);
  for (int i = 1; i <= 300; ++i) // more than one batch
    writer.append([i](std::uint64_t seq) { return "new" + std::to_string(i) + "#" + std::to_string(seq); },
                  nullptr);
  ASSERT_TRUE(seen.wait_live(300));
  auto live = seen.live();
  ASSERT_EQ(live.size(), 300u);
  for (int i = 1; i <= 300; ++i)
    EXPECT_EQ(live[i - 1], "new" + std::to_string(i) + "#" + std::to_string(i));
  EXPECT_EQ(seen.history(), old);
  EXPECT_FALSE(health.problem());
}

INSTANTIATE_TEST_SUITE_P(Backends, ChangeLog,
                         ::testing::Values(log_kind{"memory", false}, log_kind{"redis", true}),
                         [](const auto& info) { return std::string(info.param.name); });

// Redis itself, stopped and gone: what only a real server shows.
class RedisOutage : public ::testing::Test {
protected:
  log_connector connect_for(const test::redis_process& r) {
    log_settings s;
    s.url = r.url();
    s.timeout = 300ms;
    return connector_for(s);
  }
};

TEST_F(RedisOutage, ChangesMadeWhileRedisIsStoppedArriveOnceInOrderWhenItContinues) {
  test::redis_process redis;
  auto connect = connect_for(redis);
  link_health health;
  collected seen;
  log_reader reader(
    connect, {}, [&](std::vector<log_entry>& e, bool h) { seen.add(e, h); }, health, log_position{});
  log_writer writer(
    connect, {10000, 16, 20ms}, [](std::uint64_t s) { return "resync" + std::to_string(s); }, health);
  auto append = [&](int i) {
    writer.append([i](std::uint64_t) { return "c" + std::to_string(i); }, nullptr);
  };
  for (int i = 1; i <= 20; ++i)
    append(i);
  ASSERT_TRUE(seen.wait_live(20));
  redis.pause();
  for (int i = 21; i <= 120; ++i) // batches time out and are sent again
    append(i);
  // The writer finds the log unreachable and says so.
  for (int i = 0; i < 200 && !health.problem(); ++i)
    seen.wait_live(1000, 20ms); // a bounded wait for the writer to notice
  ASSERT_TRUE(health.problem());
  EXPECT_NE(health.problem()->find("log unreachable"), std::string::npos) << *health.problem();
  redis.resume();
  ASSERT_TRUE(seen.wait_for("c120"));
  // A batch sent before the stop, timed out and sent again, sits in the
  // log twice (Redis ran both once it continued): the log is at least once,
  // and origin_filter makes delivery exactly once. Here every entry must
  // appear, first in order.
  auto live = seen.live();
  std::vector<std::string> firsts;
  for (auto& b : live)
    if (std::find(firsts.begin(), firsts.end(), b) == firsts.end())
      firsts.push_back(b);
  std::string all;
  for (auto& b : live)
    all += b + " ";
  EXPECT_EQ(firsts, numbered("c", 120)) << all;
  EXPECT_EQ(writer.overflows(), 0u);
}

TEST_F(RedisOutage, AnOverflowingOutboxTurnsIntoOneResyncAndReleasesWhatItDropped) {
  auto port = test::free_loopback_port(); // nothing there yet
  log_settings s;
  s.url = "redis://127.0.0.1:" + std::to_string(port);
  s.timeout = 200ms;
  auto connect = connector_for(s);
  link_health health;
  log_writer writer(
    connect, {5, 16, 20ms}, [](std::uint64_t seq) { return "resync#" + std::to_string(seq); }, health);
  auto released = std::make_shared<std::atomic<int>>(0);
  struct counter { // counts its own release
    explicit counter(std::shared_ptr<std::atomic<int>> n) : n(std::move(n)) {}
    ~counter() { ++*n; }
    std::shared_ptr<std::atomic<int>> n;
  };
  for (int i = 1; i <= 12; ++i)
    writer.append([i](std::uint64_t seq) { return "c" + std::to_string(i) + "#" + std::to_string(seq); },
                  std::make_shared<counter>(released));
  // 5 waited, the 6th overflowed them into a resync (+ itself), and so on.
  EXPECT_EQ(writer.overflows(), 2u);
  EXPECT_EQ(released->load(), 9);
  EXPECT_EQ(writer.waiting(), 4u);
  test::redis_process redis(port); // the log comes back
  auto r = connect();
  std::vector<log_entry> got;
  for (int i = 0; i < 100 && got.size() < 4; ++i) { // bounded: each read waits for news
    auto more = r->read(got.empty() ? log_position{} : got.back().position, 100, 200ms);
    ASSERT_TRUE(more);
    got.insert(got.end(), more->begin(), more->end());
  }
  std::vector<std::string> bodies;
  for (auto& e : got)
    bodies.push_back(e.body);
  // c1..c5 (1-5) waited; c6 overflowed them into resync 6 (c6 is 7);
  // c10 overflowed resync 6 and c6..c9 into resync 11 (c10 is 12). What
  // remains is that resync and what came after it, in order.
  EXPECT_EQ(bodies, (std::vector<std::string>{"resync#11", "c10#12", "c11#13", "c12#14"}));
  EXPECT_TRUE(writer.taken(12) != nullptr);
  EXPECT_EQ(writer.taken(12), nullptr); // handed back once
}

// A Redis that asks for a password (requirepass): the URL's credentials
// are sent with AUTH; a wrong one is refused at connect, and a message
// never repeats it.
TEST(RedisAuth, TheUrlsPasswordOpensTheLogAndAWrongOneIsRefused) {
  test::redis_process redis(test::free_loopback_port(), {"--requirepass", "right horse"});
  auto url = [&](const std::string& userinfo) {
    log_settings s;
    s.url = "redis://" + userinfo + "127.0.0.1:" + std::to_string(redis.port());
    s.timeout = 1000ms;
    return connector_for(s);
  };
  auto ok = url(":right%20horse@")();
  std::vector<std::string> one{"entry"};
  EXPECT_EQ(ok->append(one), 1u);
  auto read = ok->read(log_position{}, 10, 0ms);
  ASSERT_TRUE(read);
  EXPECT_EQ(read->size(), 1u);

  auto none = url("")(); // connects, and the first command is refused
  EXPECT_EQ(none->append(one), 0u);
  EXPECT_NE(none->error().find("NOAUTH"), std::string::npos) << none->error();

  try {
    url(":wrong%20staple@")();
    ADD_FAILURE() << "a wrong password was accepted";
  } catch (const std::runtime_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("AUTH"), std::string::npos) << what;
    EXPECT_EQ(what.find("wrong staple"), std::string::npos) << what;
  }
}

} // namespace
} // namespace cafmcp::cluster

// The cluster's pure parts: addresses, positions, exactly-once by origin.
#include <gtest/gtest.h>

#include "cluster/cluster_url.hpp"
#include "cluster/log_position.hpp"
#include "cluster/origin_filter.hpp"

namespace cafmcp::cluster {
namespace {

TEST(ClusterUrl, RedisWithPortAndDatabase) {
  auto a = std::get<redis_address>(parse_log_url("redis://127.0.0.1:6380/2"));
  EXPECT_EQ(a.host, "127.0.0.1");
  EXPECT_EQ(a.port, 6380);
  EXPECT_EQ(a.db, 2u);
  auto d = std::get<redis_address>(parse_log_url("redis://cache"));
  EXPECT_EQ(d.host, "cache");
  EXPECT_EQ(d.port, 6379);
  EXPECT_EQ(d.db, 0u);
  auto v6 = std::get<redis_address>(parse_log_url("redis://[::1]:7000"));
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.port, 7000);
}

TEST(ClusterUrl, CredentialsArePercentDecodedAndNeverRepeated) {
  auto a = std::get<redis_address>(parse_log_url("redis://:s3cr%40t@cache:6380/1"));
  EXPECT_EQ(a.user, "");
  EXPECT_EQ(a.password, "s3cr@t");
  EXPECT_EQ(a.host, "cache");
  EXPECT_EQ(a.db, 1u);
  auto u = std::get<redis_address>(parse_log_url("redis://mcp:pw@h"));
  EXPECT_EQ(u.user, "mcp");
  EXPECT_EQ(u.password, "pw");
  EXPECT_FALSE(std::get<redis_address>(parse_log_url("redis://h")).password);
  EXPECT_EQ(redacted("redis://mcp:hunter2@h:1/2"), "redis://mcp:***@h:1/2");
  EXPECT_EQ(redacted("redis://h:1"), "redis://h:1");
  for (auto bad : {"redis://:hunter2@h:x", "redis://:hunter2@", "redis://mcp@h", "redis://:hunter2%zz@h"}) {
    try {
      parse_log_url(bad);
      ADD_FAILURE() << "accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_EQ(std::string(e.what()).find("hunter2"), std::string::npos) << e.what();
    }
  }
}

TEST(ClusterUrl, MemoryLogsHaveNames) {
  EXPECT_EQ(std::get<memory_address>(parse_log_url("memory://a")).name, "a");
  EXPECT_THROW(parse_log_url("memory://"), std::invalid_argument);
}

TEST(ClusterUrl, EverythingElseIsRefusedWithItsReason) {
  for (auto bad : {"", "http://x:1", "redis://", "redis://:6379", "redis://h:0", "redis://h:99999",
                   "redis://h:x", "redis://h/db", "redis://[::1"}) {
    try {
      parse_log_url(bad);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("cluster URL"), std::string::npos) << e.what();
    }
  }
}

TEST(LogPosition, ReadsAndWritesRedisIdsInLogOrder) {
  auto p = log_position::parse("1700000000000-3");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->text(), "1700000000000-3");
  EXPECT_LT(*log_position::parse("5-9"), *log_position::parse("6-0"));
  EXPECT_LT(*log_position::parse("6-2"), *log_position::parse("6-10"));
  for (auto bad : {"", "5", "-", "5-", "-5", "a-1", "1-b", "1-2-3", "99999999999999999999-1"})
    EXPECT_FALSE(log_position::parse(bad)) << bad;
}

TEST(OriginFilter, EachEntryOnceInOrderWhateverTheRetriesRepeat) {
  origin_filter f;
  using v = origin_filter::verdict;
  // Node a's batch 1..3 appended, its answer lost, sent again: the log holds
  // 1 2 3 1 2 3 4, with node b's entries in between.
  EXPECT_EQ(f.admit("a", 1), v::fresh);
  EXPECT_EQ(f.admit("b", 1), v::fresh);
  EXPECT_EQ(f.admit("a", 2), v::fresh);
  EXPECT_EQ(f.admit("a", 3), v::fresh);
  EXPECT_EQ(f.admit("a", 1), v::duplicate);
  EXPECT_EQ(f.admit("b", 2), v::fresh);
  EXPECT_EQ(f.admit("a", 2), v::duplicate);
  EXPECT_EQ(f.admit("a", 3), v::duplicate);
  EXPECT_EQ(f.admit("a", 4), v::fresh);
}

TEST(OriginFilter, AMissingRunOfAnOriginIsAGap) {
  origin_filter f;
  using v = origin_filter::verdict;
  EXPECT_EQ(f.admit("a", 7), v::fresh); // first seen: earlier ones predate this reader
  EXPECT_EQ(f.admit("a", 8), v::fresh);
  EXPECT_EQ(f.admit("a", 12), v::after_gap);
  EXPECT_EQ(f.admit("a", 13), v::fresh);
}

} // namespace
} // namespace cafmcp::cluster

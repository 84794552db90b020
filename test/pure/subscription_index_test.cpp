// The subscription index, both directions, without actors.
#include <gtest/gtest.h>

#include "protocol/subscription_index.hpp"

namespace cafmcp::protocol {
namespace {

using o = subscription_index::outcome;

TEST(SubscriptionIndex, ExactSubscribersOnly) {
  subscription_index idx;
  EXPECT_EQ(idx.subscribe(1, "a://x", false, 10), o::added);
  EXPECT_EQ(idx.subscribe(1, "a://x", false, 10), o::already);
  EXPECT_EQ(idx.subscribe(2, "a://y", false, 10), o::added);
  EXPECT_EQ(idx.subscribers_of("a://x"), std::vector<std::uint64_t>{1});
  EXPECT_TRUE(idx.subscribers_of("a://z").empty());
  EXPECT_EQ(idx.subscriptions(), 2u);
}

TEST(SubscriptionIndex, TemplatesCoverExpansionsAndDeduplicate) {
  subscription_index idx;
  idx.subscribe(1, "a://item/{id}", true, 10);
  idx.subscribe(1, "a://item/7", false, 10);
  idx.subscribe(2, "a://item/7", false, 10);
  auto s = idx.subscribers_of("a://item/7");
  EXPECT_EQ(s, (std::vector<std::uint64_t>{1, 2}));
  EXPECT_EQ(idx.subscribers_of("a://item/8"), std::vector<std::uint64_t>{1});
}

TEST(SubscriptionIndex, DropRemovesEverythingOfOneSubscriber) {
  subscription_index idx;
  idx.subscribe(1, "a://x", false, 10);
  idx.subscribe(1, "a://t/{id}", true, 10);
  idx.subscribe(2, "a://x", false, 10);
  idx.drop(1);
  EXPECT_EQ(idx.subscriptions(), 1u);
  EXPECT_EQ(idx.subscribed_uris(), 1u);
  EXPECT_EQ(idx.subscribers_of("a://x"), std::vector<std::uint64_t>{2});
  EXPECT_EQ(idx.count(1), 0u);
}

TEST(SubscriptionIndex, UnsubscribeIsIdempotent) {
  subscription_index idx;
  idx.subscribe(1, "a://x", false, 10);
  EXPECT_TRUE(idx.unsubscribe(1, "a://x"));
  EXPECT_FALSE(idx.unsubscribe(1, "a://x"));
  EXPECT_EQ(idx.subscriptions(), 0u);
  EXPECT_EQ(idx.subscribed_uris(), 0u);
}

TEST(SubscriptionIndex, LimitPerSubscriber) {
  subscription_index idx;
  EXPECT_EQ(idx.subscribe(1, "a://1", false, 1), o::added);
  EXPECT_EQ(idx.subscribe(1, "a://2", false, 1), o::over_limit);
  EXPECT_EQ(idx.subscribe(2, "a://2", false, 1), o::added);
}

} // namespace
} // namespace cafmcp::protocol

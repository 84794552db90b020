// resources/updated written as text must be the bytes the tree would print:
// a client (or a cluster peer comparing what it replays) sees one message
// however the notifier built it. Pure: no actors.
#include <random>
#include <string>

#include <gtest/gtest.h>

#include "cafmcp/json_rpc.hpp"

#include "protocol/change.hpp"

namespace cafmcp::protocol {
namespace {

std::string from_tree(std::string_view uri) { return jsonrpc::wire_text(resource_updated_notification(uri)); }

TEST(ResourceUpdatedText, IsWhatTheTreePrintsForUrisThatNeedEscaping) {
  const std::string uris[] = {
    "file:///a.txt",
    "",
    "mem://quote\"and\\backslash",
    std::string("ctl://\x01\x1f\t\n\r\b\f\0", 14), // a NUL too
    "utf8://caf\xc3\xa9/\xe2\x82\xac/\xf0\x9f\x98\x80",
    "bad-utf8://\xff\xfe/\xc3/\xe2\x82", // each bad byte becomes U+FFFD in both
    "del://\x7f and slash /",
    std::string(4096, 'x'),
  };
  for (auto& uri : uris)
    EXPECT_EQ(resource_updated_wire_text(uri), from_tree(uri)) << uri;
}

TEST(ResourceUpdatedText, IsValidJsonThatReadsBackToTheUri) {
  auto text = resource_updated_wire_text("file:///dir/\"x\".txt");
  auto j = json::parse(text);
  EXPECT_EQ(j["jsonrpc"], "2.0");
  EXPECT_EQ(j["method"], "notifications/resources/updated");
  EXPECT_EQ(j["params"]["uri"], "file:///dir/\"x\".txt");
  EXPECT_EQ(j.size(), 3u);
  EXPECT_EQ(j["params"].size(), 1u);
}

TEST(ResourceUpdatedText, AgreesWithTheTreeOnRandomBytes) {
  std::mt19937 rng(20261129);
  std::uniform_int_distribution<int> byte(0, 255), length(0, 40);
  for (int i = 0; i < 5000; ++i) {
    std::string uri(static_cast<std::size_t>(length(rng)), '\0');
    for (auto& c : uri)
      c = static_cast<char>(byte(rng));
    ASSERT_EQ(resource_updated_wire_text(uri), from_tree(uri)) << "case " << i;
  }
}

} // namespace
} // namespace cafmcp::protocol

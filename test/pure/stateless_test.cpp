// The 2026-07-28 revision's pure rules: which requests are stateless, what
// their `_meta` must carry, discover, result shapes, errors.
#include <gtest/gtest.h>

#include "protocol/stateless.hpp"

namespace cafmcp::protocol {
namespace {

json meta(json fields) { return {{"_meta", std::move(fields)}}; }

const json good = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                   {"io.modelcontextprotocol/clientCapabilities", {{"sampling", json::object()}}}};

TEST(Stateless, RoutedByTheVersionInMeta) {
  EXPECT_TRUE(is_stateless_request(meta(good)));
  EXPECT_TRUE(is_stateless_request(meta({{"io.modelcontextprotocol/protocolVersion", "v999"}})));
  EXPECT_FALSE(is_stateless_request(json::object()));
  EXPECT_FALSE(is_stateless_request(meta({{"progressToken", 1}}))); // a 2025-11-25 request
  EXPECT_FALSE(is_stateless_request(json::array()));
}

TEST(Stateless, MetaReadIntoClientFacts) {
  auto m = read_request_meta(meta(good));
  ASSERT_TRUE(std::holds_alternative<request_meta>(m));
  auto& r = std::get<request_meta>(m);
  EXPECT_EQ(r.protocol_version, "2026-07-28");
  EXPECT_TRUE(r.client_capabilities.contains("sampling"));
  EXPECT_TRUE(r.client_info.is_null()); // optional
  EXPECT_FALSE(r.level);                // no level: no logging
  auto with_level = good;
  with_level["io.modelcontextprotocol/logLevel"] = "warning";
  EXPECT_EQ(std::get<request_meta>(read_request_meta(meta(with_level))).level, log_level::warning);
}

TEST(Stateless, MissingOrMalformedMetaIsInvalidParams) {
  auto code = [](const json& params) {
    auto m = read_request_meta(params);
    return std::holds_alternative<jsonrpc::error>(m) ? std::get<jsonrpc::error>(m).code : 0;
  };
  EXPECT_EQ(code(json::object()), -32602);
  EXPECT_EQ(code(meta({{"io.modelcontextprotocol/clientCapabilities", json::object()}})), -32602);
  EXPECT_EQ(code(meta({{"io.modelcontextprotocol/protocolVersion", "2026-07-28"}})), -32602);
  auto bad_level = good;
  bad_level["io.modelcontextprotocol/logLevel"] = "loud";
  EXPECT_EQ(code(meta(bad_level)), -32602);
}

TEST(Stateless, UnsupportedVersionListsOursAndEchoesTheRequest) {
  auto m = read_request_meta(meta({{"io.modelcontextprotocol/protocolVersion", "2025-11-25"},
                                   {"io.modelcontextprotocol/clientCapabilities", json::object()}}));
  ASSERT_TRUE(std::holds_alternative<jsonrpc::error>(m));
  auto& e = std::get<jsonrpc::error>(m);
  EXPECT_EQ(e.code, -32022);
  EXPECT_EQ((*e.data)["supported"], json::array({"2026-07-28"}));
  EXPECT_EQ((*e.data)["requested"], "2025-11-25");
}

TEST(Stateless, RemovedMethods) {
  for (auto m : {"initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"})
    EXPECT_TRUE(removed_in_stateless(m)) << m;
  for (auto m : {"tools/call", "server/discover", "subscriptions/listen"})
    EXPECT_FALSE(removed_in_stateless(m)) << m;
}

TEST(Stateless, DiscoverNamesTheServerInMeta) {
  server_options opts;
  opts.name = "n";
  registry reg;
  auto r = discover_result(opts, reg);
  EXPECT_EQ(r["supportedVersions"], json::array({"2026-07-28"}));
  EXPECT_EQ(r["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "n");
  EXPECT_TRUE(r["capabilities"].is_object());
}

TEST(Stateless, ResultsGetResultTypeAndCachingHints) {
  server_options opts;
  opts.list_cache = {std::chrono::seconds(5), true};
  opts.read_cache = {std::chrono::milliseconds(0), false};
  json list = {{"tools", json::array()}};
  finish_stateless_result("tools/list", list, opts);
  EXPECT_EQ(list["resultType"], "complete");
  EXPECT_EQ(list["ttlMs"], 5000);
  EXPECT_EQ(list["cacheScope"], "public");
  json read = {{"contents", json::array()}};
  finish_stateless_result("resources/read", read, opts);
  EXPECT_EQ(read["ttlMs"], 0);
  EXPECT_EQ(read["cacheScope"], "private");
  json call = {{"content", json::array()}};
  finish_stateless_result("tools/call", call, opts);
  EXPECT_EQ(call["resultType"], "complete");
  EXPECT_FALSE(call.contains("ttlMs"));
  json asking = {{"resultType", "input_required"}, {"inputRequests", json::object()}};
  finish_stateless_result("resources/read", asking, opts);
  EXPECT_FALSE(asking.contains("ttlMs")); // not cacheable
}

TEST(Stateless, ResourceNotFoundIsInvalidParams) {
  auto e = stateless_error({jsonrpc::code::resource_not_found, "gone", json{{"uri", "a://b"}}});
  EXPECT_EQ(e.code, -32602);
  EXPECT_EQ((*e.data)["uri"], "a://b");
  EXPECT_EQ(stateless_error({-32603, "x", std::nullopt}).code, -32603);
  EXPECT_EQ((*missing_client_capability("sampling").data)["requiredCapabilities"],
            json({{"sampling", json::object()}}));
}

} // namespace
} // namespace cafmcp::protocol

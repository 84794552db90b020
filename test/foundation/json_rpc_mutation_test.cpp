// parse() against tens of thousands of damaged messages: valid MCP messages
// with bytes flipped, cut, repeated and spliced with hostile tokens (deep
// nesting, huge numbers, broken UTF-8 and escapes). Whatever comes in, parse
// must answer with a message or a JSON-RPC error code, never throw, and what
// it accepts must survive serialize() and parse again unchanged. Seeded, so
// a failure names an input that reproduces.
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cafmcp/json_rpc.hpp"

#include "mutator.hpp"

namespace cafmcp::jsonrpc {
namespace {

const std::vector<std::string> corpus = {
  R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"c","version":"1"}}})",
  R"({"jsonrpc":"2.0","id":"a-7","method":"tools/call","params":{"name":"echo","arguments":{"text":"h\u00e9llo","n":[1,2.5,-3e2,{"k":null}]},"_meta":{"progressToken":"p"}}})",
  R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"file:///a%20b.txt"}})",
  R"({"jsonrpc":"2.0","method":"notifications/initialized"})",
  R"({"jsonrpc":"2.0","id":9223372036854775807,"result":{"content":[{"type":"text","text":"ok"}],"isError":false}})",
  R"({"jsonrpc":"2.0","id":3,"error":{"code":-32602,"message":"bad","data":{"field":"uri"}}})",
  R"({"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}})",
};

// What parse() accepts, written and read again, is the same message.
void expect_round_trip(const message& msg, const std::string& input) {
  auto once = serialize(msg);
  EXPECT_EQ(once.find('\n'), std::string::npos) << input;
  auto again = parse(once);
  ASSERT_TRUE(std::holds_alternative<message>(again))
    << "accepted " << input << "\nbut not its serialization " << once;
  EXPECT_EQ(serialize(std::get<message>(again)), once) << input;
}

TEST(JsonRpcMutation, DamagedMessagesGetAnErrorCodeOrParseAndRoundTrip) {
  cafmcp::test::mutator mutate(20261123);
  const limits strict{2048, 8}; // the size and depth checks meet damage too
  std::size_t accepted = 0, refused = 0;
  for (int i = 0; i < 40000; ++i) {
    auto input = mutate(corpus[static_cast<std::size_t>(i) % corpus.size()]);
    const auto& lim = i % 2 == 0 ? limits{} : strict;
    auto r = parse(input, lim); // a throw fails the test
    if (auto* f = std::get_if<parse_failure>(&r)) {
      ++refused;
      EXPECT_TRUE(f->err.code == code::parse_error || f->err.code == code::invalid_request)
        << f->err.code << " for " << input;
      EXPECT_FALSE(f->err.message.empty()) << input;
      if (input.size() > lim.max_message_bytes) {
        EXPECT_EQ(f->err.code, code::invalid_request) << "oversize input not refused as such";
      }
      // The error response the transport would send is itself valid.
      auto reply = parse(serialize_error(f->id, f->err));
      EXPECT_TRUE(std::holds_alternative<message>(reply)) << serialize_error(f->id, f->err);
    } else {
      ++accepted;
      ASSERT_LE(input.size(), lim.max_message_bytes) << "oversize input accepted";
      expect_round_trip(std::get<message>(r), input);
    }
    if (HasFatalFailure())
      return;
  }
  // Both outcomes were exercised: damage that keeps a message valid (a
  // changed string, a number) and damage that does not.
  EXPECT_GT(accepted, 1000u);
  EXPECT_GT(refused, 10000u);
}

} // namespace
} // namespace cafmcp::jsonrpc

// The OTLP/JSON mapping: shape, id and number encodings, scopes.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cafmcp/otel/exporter.hpp"
#include "cafmcp/otel/otlp_json.hpp"

namespace cafmcp::otel {
namespace {

using json = nlohmann::json;

span_data sample_span() {
  span_data s;
  s.context = {random_trace_id(), random_span_id(), 1, "k=v", false};
  s.parent = random_span_id();
  s.parent_remote = true;
  s.name = "tools/call add_resource";
  s.kind = span_kind::server;
  s.start_unix_nano = 1700000000000000000ull;
  s.end_unix_nano = 1700000000000001000ull;
  s.attributes = {{"mcp.method.name", std::string("tools/call")},
                  {"n", std::int64_t{9007199254740993}},
                  {"x", 1.5},
                  {"ok", true}};
  s.events.push_back({1700000000000000500ull, "evt", {{"e", std::int64_t{-1}}}});
  span_link link; // member by member: GCC 12 warns (falsely) of an uninitialized tracestate in the braced form
  link.context = {random_trace_id(), random_span_id(), 0, "l=1", true};
  link.attributes = {{"why", std::string("x")}};
  s.links.push_back(std::move(link));
  s.status = status_code::error;
  s.status_message = "boom";
  return s;
}

TEST(OtlpJson, FollowsTheJsonMapping) {
  auto s = sample_span();
  auto j = json::parse(encode_otlp_json(resource::with_service("svc"), "scope", {s}));
  ASSERT_EQ(j.size(), 1u);
  auto& rs = j["resourceSpans"][0];
  EXPECT_EQ(rs["resource"]["attributes"][0]["key"], "service.name");
  EXPECT_EQ(rs["resource"]["attributes"][0]["value"]["stringValue"], "svc");
  auto& span = rs["scopeSpans"][0]["spans"][0];
  EXPECT_EQ(rs["scopeSpans"][0]["scope"]["name"], "scope");
  EXPECT_EQ(span["traceId"], to_hex(s.context.trace)); // lowercase hex, not base64
  EXPECT_EQ(span["spanId"], to_hex(s.context.span));
  EXPECT_EQ(span["parentSpanId"], to_hex(s.parent));
  EXPECT_EQ(span["kind"], 2);                                  // enums as integers
  EXPECT_EQ(span["startTimeUnixNano"], "1700000000000000000"); // 64-bit integers as strings
  EXPECT_EQ(span["endTimeUnixNano"], "1700000000000001000");
  EXPECT_EQ(span["attributes"][0]["value"], json({{"stringValue", "tools/call"}}));
  EXPECT_EQ(span["attributes"][1]["value"]["intValue"], "9007199254740993");
  EXPECT_EQ(span["attributes"][2]["value"]["doubleValue"], 1.5);
  EXPECT_EQ(span["attributes"][3]["value"]["boolValue"], true);
  EXPECT_EQ(span["status"], json({{"code", 2}, {"message", "boom"}}));
  EXPECT_EQ(span["events"][0]["timeUnixNano"], "1700000000000000500");
  EXPECT_EQ(span["events"][0]["attributes"][0]["value"]["intValue"], "-1");
  EXPECT_EQ(span["traceState"], "k=v");
  EXPECT_EQ(span["flags"], 0x301); // sampled, parent remote (and known to be)
  auto& link = span["links"][0];
  EXPECT_EQ(link["traceId"], to_hex(s.links[0].context.trace));
  EXPECT_EQ(link["traceState"], "l=1");
  EXPECT_EQ(link["flags"], 0x300);
  EXPECT_EQ(link["attributes"][0]["key"], "why");
}

// Ids are written sixteen hex digits at a time: every byte value, in every
// place of an id, comes out as its two lowercase digits.
TEST(OtlpJson, IdsAreLowercaseHexOfEveryByteInEveryPlace) {
  std::vector<span_data> spans;
  for (int first = 0; first < 256; first += 8) {
    span_data s;
    for (std::size_t i = 0; i < 16; ++i)
      s.context.trace[i] = static_cast<std::uint8_t>(first + 8 * (i % 2) + i / 2 + 128 * (i >= 8));
    for (std::size_t i = 0; i < 8; ++i) {
      s.context.span[i] = static_cast<std::uint8_t>(first + i);
      s.parent[i] = static_cast<std::uint8_t>(255 - first - i);
    }
    s.name = "s";
    spans.push_back(s);
  }
  auto out = json::parse(encode_otlp_json(resource::with_service("svc"), "scope", spans));
  auto& got = out["resourceSpans"][0]["scopeSpans"][0]["spans"];
  ASSERT_EQ(got.size(), spans.size());
  for (std::size_t k = 0; k < spans.size(); ++k) {
    EXPECT_EQ(got[k]["traceId"], to_hex(spans[k].context.trace)) << k;
    EXPECT_EQ(got[k]["spanId"], to_hex(spans[k].context.span)) << k;
    EXPECT_EQ(got[k]["parentSpanId"], to_hex(spans[k].parent)) << k;
  }
}

TEST(OtlpJson, RootsOmitParentAndEmptyParts) {
  span_data s;
  s.context = {random_trace_id(), random_span_id(), 1, {}, false};
  s.name = "root";
  auto span = json::parse(encode_otlp_json(resource::with_service("svc"), "scope",
                                           {s}))["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
  EXPECT_FALSE(span.contains("parentSpanId"));
  EXPECT_FALSE(span.contains("traceState"));
  EXPECT_FALSE(span.contains("events"));
  EXPECT_FALSE(span.contains("links"));
  EXPECT_EQ(span["status"], json({{"code", 0}}));
  EXPECT_EQ(span["kind"], 1);
  EXPECT_EQ(span["flags"], 0x101);
}

TEST(OtlpJson, OneScopeSpansPerInstrumentationScope) {
  auto a = std::make_shared<const instrumentation_scope>(instrumentation_scope{"a", "1.0"});
  auto b = std::make_shared<const instrumentation_scope>(instrumentation_scope{"b", ""});
  std::vector<span_data> spans(4);
  spans[0].scope = a;
  spans[1].scope = b;
  spans[2].scope = a;
  // spans[3]: none, so the default scope
  for (auto& s : spans)
    s.context = {random_trace_id(), random_span_id(), 1, {}, false};
  auto ss = json::parse(
    encode_otlp_json(resource::with_service("svc"), "default", spans))["resourceSpans"][0]["scopeSpans"];
  ASSERT_EQ(ss.size(), 3u);
  EXPECT_EQ(ss[0]["scope"], json({{"name", "a"}, {"version", "1.0"}}));
  EXPECT_EQ(ss[0]["spans"].size(), 2u);
  EXPECT_EQ(ss[1]["scope"], json({{"name", "b"}}));
  EXPECT_EQ(ss[2]["scope"]["name"], "default");
}

TEST(OtlpJson, NonFiniteDoublesAndBrokenUtf8StayValidJson) {
  span_data s;
  s.context = {random_trace_id(), random_span_id(), 1, {}, false};
  s.name = std::string("bad \xff utf8");
  s.attributes = {{"nan", std::nan("")}, {"inf", HUGE_VAL}, {"-inf", -HUGE_VAL}};
  auto text = encode_otlp_json(resource::with_service("svc"), "scope", {s});
  auto span = json::parse(text)["resourceSpans"][0]["scopeSpans"][0]["spans"][0];
  EXPECT_EQ(span["attributes"][0]["value"]["doubleValue"], "NaN"); // proto3 JSON spelling
  EXPECT_EQ(span["attributes"][1]["value"]["doubleValue"], "Infinity");
  EXPECT_EQ(span["attributes"][2]["value"]["doubleValue"], "-Infinity");
  EXPECT_EQ(span["name"], "bad \xEF\xBF\xBD utf8"); // U+FFFD
}

// Whether a string goes out as it is is judged up to sixteen bytes at a
// time, in steps that overlap at the end: a byte that needs escaping (or a
// multi-byte character) is found at every position of every length, in
// keys and values alike, and everything else comes back as it went in.
TEST(OtlpJson, EveryByteThatNeedsEscapingIsFoundWhereverItStands) {
  const std::vector<std::string> specials = {"\"", "\\", "\n", std::string(1, '\0'), "\x1f", "\x7f", "\xc3\xa9"};
  auto res = resource::with_service("svc");
  for (std::size_t n = 1; n <= 40; ++n)
    for (std::size_t at = 0; at < n; ++at)
      for (auto& special : specials) {
        std::string text(n, 'x');
        text.replace(at, 1, special);
        span_data s;
        s.context = {random_trace_id(), random_span_id(), 1, {}, false};
        s.name = "escaping";
        s.attributes = {{text, text}, {"plain" + std::string(n, 'k'), std::string(n, 'v')}};
        auto attrs = json::parse(encode_otlp_json(res, "scope", {s}))["resourceSpans"][0]["scopeSpans"][0]["spans"][0]
                                                                      ["attributes"];
        ASSERT_EQ(attrs.size(), 2u);
        EXPECT_EQ(attrs[0]["key"], text) << n << " " << at;
        EXPECT_EQ(attrs[0]["value"]["stringValue"], text) << n << " " << at;
        EXPECT_EQ(attrs[1]["key"], "plain" + std::string(n, 'k'));
        EXPECT_EQ(attrs[1]["value"]["stringValue"], std::string(n, 'v'));
      }
}

// A group's members are encoded from its shared part without expanding it:
// they must come out exactly as the expanded spans would, ids aside.
void expect_group_encoded_as_expanded(const span_group& g) {
  auto res = resource::with_service("svc");
  span_batch batch;
  batch.spans.push_back(sample_span());
  batch.groups.push_back(std::make_unique<span_group>(g));
  std::vector<span_data> expanded = {batch.spans[0]};
  for (auto& s : g.expand())
    expanded.push_back(s);
  auto direct = json::parse(encode_otlp_json(res, "scope", batch));
  auto reference = json::parse(encode_otlp_json(res, "scope", expanded));
  auto& spans = direct["resourceSpans"][0]["scopeSpans"][0]["spans"];
  auto& want = reference["resourceSpans"][0]["scopeSpans"][0]["spans"];
  ASSERT_EQ(spans.size(), 1 + g.members.size());
  std::set<std::string> ids;
  for (std::size_t i = 0; i < spans.size(); ++i) {
    ASSERT_TRUE(spans[i]["spanId"].is_string());
    auto id = spans[i]["spanId"].get<std::string>();
    ids.insert(id);
    EXPECT_EQ(id.size(), 16u);
    EXPECT_EQ(id.find_first_not_of("0123456789abcdef"), std::string::npos) << id;
    EXPECT_NE(id, "0000000000000000");
    if (i > 0) { // drawn at encoding: not comparable
      spans[i].erase("spanId");
      want[i].erase("spanId");
    }
    EXPECT_EQ(spans[i], want[i]) << i;
  }
  EXPECT_EQ(ids.size(), spans.size()); // every member has an id of its own
  direct["resourceSpans"][0]["scopeSpans"][0].erase("spans");
  reference["resourceSpans"][0]["scopeSpans"][0].erase("spans");
  EXPECT_EQ(direct, reference);
}

span_group send_group() {
  span_group g;
  g.common.context = {random_trace_id(), {}, 1, "k=v", false};
  g.common.parent = random_span_id();
  g.common.name = "send notifications/resources/updated";
  g.common.kind = span_kind::client;
  g.common.attributes = {{"mcp.method.name", std::string("notifications/resources/updated")},
                         {"mcp.resource.uri", std::string("bench://\"q\"/\xc3\xa9")},
                         {"n", std::int64_t{7}}};
  g.member_key = "mcp.session.id";
  g.add(10, 20, "0123456789abcdef0123456789abcdef");
  g.add(20, 31, "needs \"escaping\" \\ and \n");
  g.add(31, 40, "bad \xff utf8");
  return g;
}

TEST(OtlpJson, AGroupIsEncodedAsItsExpandedSpans) { expect_group_encoded_as_expanded(send_group()); }

TEST(OtlpJson, AGroupWithoutCommonAttributesIsEncodedAsItsExpandedSpans) {
  auto g = send_group();
  g.common.attributes.clear();
  g.common.context.tracestate.clear();
  g.common.parent = {};
  expect_group_encoded_as_expanded(g);
}

// Members' times and values are written by hand, not by the JSON library:
// every number comes out as its decimal digits, and every value as the
// string it was, whatever byte sits wherever in it.
TEST(OtlpJson, AGroupsTimesAndValuesComeOutExactly) {
  std::vector<std::uint64_t> times = {0,
                                      1,
                                      9,
                                      10,
                                      99,
                                      100,
                                      10'000'000,
                                      12'345'678,
                                      99'999'999,
                                      100'000'000,
                                      100'000'001,
                                      9'999'999'999'999'999,
                                      10'000'000'000'000'000,
                                      1'765'050'000'123'456'789ull,
                                      10'000'000'000'000'000'000ull,
                                      UINT64_MAX};
  // Every length of number, with digits of every value in every place.
  std::uint64_t x = 0x9e3779b97f4a7c15;
  for (int round = 0; round < 20; ++round)
    for (std::uint64_t limit = 10; limit != 10'000'000'000'000'000'000ull; limit *= 10) {
      x = x * 6364136223846793005 + 1442695040888963407;
      times.push_back(x % limit);
    }
  span_group g;
  g.common.context = {random_trace_id(), {}, 1, {}, false};
  g.common.name = "send";
  g.member_key = "mcp.session.id";
  std::vector<std::string> values;
  for (int byte = 1; byte < 256; ++byte)
    for (std::size_t at : {0, 3, 7, 8, 12, 15, 16, 19}) {
      std::string v(at == 19 ? 20 : 17, 'a');
      v[at] = static_cast<char>(byte);
      values.push_back(v);
    }
  values.push_back(std::string(200, 'b')); // longer than a member's room on the stack
  values.push_back(std::string(200, 'b') + "\"");
  values.push_back("");
  for (std::size_t i = 0; i < values.size(); ++i)
    g.add(times[i % times.size()], times[(i + 1) % times.size()], values[i]);
  span_batch batch;
  batch.groups.push_back(std::make_unique<span_group>(g));
  auto spans = json::parse(encode_otlp_json(resource::with_service("svc"), "scope",
                                            batch))["resourceSpans"][0]["scopeSpans"][0]["spans"];
  ASSERT_EQ(spans.size(), values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    EXPECT_EQ(spans[i]["startTimeUnixNano"], std::to_string(times[i % times.size()])) << i;
    EXPECT_EQ(spans[i]["endTimeUnixNano"], std::to_string(times[(i + 1) % times.size()])) << i;
    auto want = values[i];
    if (auto at = std::find_if(want.begin(), want.end(),
                               [](char c) { return static_cast<unsigned char>(c) >= 0x80; });
        at != want.end())
      want.replace(at, at + 1, "\xEF\xBF\xBD"); // not UTF-8 alone: U+FFFD
    EXPECT_EQ(spans[i]["attributes"][0]["value"]["stringValue"], want) << i;
  }
}

// Sends are recorded back to back, microseconds apart: a member's start is
// the one before's end, and from one time to the next most often only the
// last eight digits move. Every way the digits can move from one member to
// the next comes out exactly: within the last eight, across them, across a
// change of length, backwards, and not at all.
TEST(OtlpJson, AGroupsTimesComeOutExactlyWhenOnlyTheLastDigitsMove) {
  std::vector<std::uint64_t> times = {1'796'646'476'132'650'245ull};
  auto step = [&](std::uint64_t d) { times.push_back(times.back() + d); };
  for (std::uint64_t d : {2'955ull, 1ull, 0ull, 9ull, 99'999'999ull, 100'000'000ull, 3ull})
    step(d);
  step(99'999'999 - times.back() % 100'000'000); // to ...99999999
  step(1);                                       // to ...00000000, the ninth digit from the end moved
  times.push_back(times.back() - 5);             // backwards, across it again
  for (std::uint64_t t : std::initializer_list<std::uint64_t>{
         99'999'998, 99'999'999, 100'000'000, 100'000'001, 199'999'999, 200'000'000, 1, 5, 12'345, 100'000'000, 0,
         100'000'005, 100'000'005, 9'999'999'999'999'999'999ull, 10'000'000'000'000'000'000ull, UINT64_MAX})
    times.push_back(t);
  span_group g;
  g.common.context = {random_trace_id(), {}, 1, {}, false};
  g.common.name = "send";
  g.member_key = "mcp.session.id";
  for (std::size_t i = 0; i + 1 < times.size(); ++i)
    g.add(times[i], times[i + 1], "c16160e6f1f85e7f6dd46d59091a0495");
  span_batch batch;
  batch.groups.push_back(std::make_unique<span_group>(g));
  auto spans = json::parse(encode_otlp_json(resource::with_service("svc"), "scope",
                                            batch))["resourceSpans"][0]["scopeSpans"][0]["spans"];
  ASSERT_EQ(spans.size(), times.size() - 1);
  for (std::size_t i = 0; i + 1 < times.size(); ++i) {
    EXPECT_EQ(spans[i]["startTimeUnixNano"], std::to_string(times[i])) << i;
    EXPECT_EQ(spans[i]["endTimeUnixNano"], std::to_string(times[i + 1])) << i;
  }
}

} // namespace
} // namespace cafmcp::otel

// A cluster log entry's text, and the replicas that carry data-only
// changes to other nodes: pure, no log, no actors.
#include <gtest/gtest.h>

#include "protocol/log_record.hpp"
#include "protocol/replica.hpp"
#include "protocol/request_state.hpp"

namespace cafmcp::protocol {
namespace {

resource text_resource(std::string uri, std::string text) {
  resource r;
  r.uri = uri;
  r.name = "name of " + uri;
  r.description = "described";
  r.list_order = "b";
  r.contents.push_back(resource_contents::make_text(std::move(uri), std::move(text), "text/plain"));
  return r;
}

TEST(LogRecord, AStreamClaimComesBackAndAnEmptyOneIsRefused) {
  log_record r;
  r.origin = "n1/abc";
  r.seq = 7;
  r.claim = log_record::stream_claim{"session-a", 3};
  auto back = decode(encode(r));
  ASSERT_TRUE(back && back->claim);
  EXPECT_EQ(back->claim->id, "session-a");
  EXPECT_EQ(back->claim->number, 3u);
  EXPECT_FALSE(decode(R"({"o":"n1/abc","s":7,"claim":{"id":"","n":3}})"));
  EXPECT_FALSE(decode(R"({"o":"n1/abc","s":7,"claim":{"id":"x"}})"));
}

TEST(LogRecord, AClientsAnswerComesBackWithItsResultOrItsError) {
  log_record r;
  r.origin = "n2/def";
  r.seq = 9;
  r.answer = log_record::client_answer{"session-a", "cafmcp-0a1b2c3d-4", json{{"model", "m"}}};
  auto back = decode(encode(r));
  ASSERT_TRUE(back && back->answer);
  EXPECT_EQ(back->answer->id, "session-a");
  EXPECT_EQ(back->answer->ask_id, "cafmcp-0a1b2c3d-4");
  EXPECT_EQ(std::get<json>(back->answer->answer), (json{{"model", "m"}}));
  r.answer->answer = jsonrpc::error{-1, "User rejected", json{{"why", "no"}}};
  back = decode(encode(r));
  ASSERT_TRUE(back && back->answer);
  auto& err = std::get<jsonrpc::error>(back->answer->answer);
  EXPECT_EQ(err.code, -1);
  EXPECT_EQ(err.message, "User rejected");
  EXPECT_EQ(err.data, (json{{"why", "no"}}));
  EXPECT_FALSE(decode(R"({"o":"n2/def","s":9,"ans":{"id":"s","result":{}}})")); // no ask id
}

TEST(LogRecord, AMessageToOneSessionComesBack) {
  log_record r;
  r.origin = "n2/def";
  r.seq = 10;
  r.message =
    log_record::session_message{"session-a", {{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}}};
  auto back = decode(encode(r));
  ASSERT_TRUE(back && back->message);
  EXPECT_EQ(back->message->id, "session-a");
  EXPECT_EQ(back->message->message, r.message->message);
  EXPECT_FALSE(decode(R"({"o":"n2/def","s":10,"msg":{"id":"s","m":"text"}})"));
}

TEST(LogRecord, EverythingItCarriesComesBack) {
  log_record r;
  r.origin = "n1/abc";
  r.seq = 42;
  r.list_change = change{item_kind::tool, operation::removed, "t", {{"name", "t"}}};
  r.updated_uri = "test://u";
  r.replica = {{"remove", {{"kind", "tool"}, {"key", "t"}}}};
  r.trace = {"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "k=v"};
  auto back = decode(encode(r));
  ASSERT_TRUE(back);
  EXPECT_EQ(back->origin, "n1/abc");
  EXPECT_EQ(back->seq, 42u);
  ASSERT_TRUE(back->list_change);
  EXPECT_EQ(back->list_change->kind, item_kind::tool);
  EXPECT_EQ(back->list_change->op, operation::removed);
  EXPECT_EQ(back->list_change->key, "t");
  EXPECT_EQ(back->list_change->descriptor, r.list_change->descriptor);
  EXPECT_EQ(back->updated_uri, "test://u");
  EXPECT_FALSE(back->resync);
  EXPECT_EQ(back->replica, r.replica);
  EXPECT_EQ(back->trace.traceparent, r.trace.traceparent);
  EXPECT_EQ(back->trace.tracestate, "k=v");

  log_record resync;
  resync.origin = "n2/x";
  resync.seq = 1;
  resync.resync = true;
  auto rs = decode(encode(resync));
  ASSERT_TRUE(rs);
  EXPECT_TRUE(rs->resync);
  EXPECT_FALSE(rs->list_change);
  EXPECT_FALSE(rs->updated_uri);
}

TEST(LogRecord, ASessionsRecordAndItsEndComeBack) {
  log_record r;
  r.origin = "n1/x";
  r.seq = 3;
  r.session = log_record::session_note{
    "abc", session_record{"2025-11-25", {{"sampling", json::object()}}, 2, {"file:///a", "file:///{name}"}}};
  auto back = decode(encode(r));
  ASSERT_TRUE(back && back->session && back->session->record);
  EXPECT_EQ(back->session->id, "abc");
  EXPECT_EQ(back->session->record->protocol_version, "2025-11-25");
  EXPECT_EQ(back->session->record->client_capabilities, (json{{"sampling", json::object()}}));
  EXPECT_EQ(back->session->record->log_level, 2);
  EXPECT_EQ(back->session->record->subscriptions, (std::vector<std::string>{"file:///a", "file:///{name}"}));
  EXPECT_EQ(back->session->record->owner, ""); // no verified subject made it

  r.session->record->owner = "alice"; // a session an authenticated caller made
  back = decode(encode(r));
  ASSERT_TRUE(back && back->session && back->session->record);
  EXPECT_EQ(back->session->record->owner, "alice");

  r.session->record.reset(); // the session ended
  back = decode(encode(r));
  ASSERT_TRUE(back && back->session);
  EXPECT_FALSE(back->session->record);
  for (auto bad : {R"({"o":"a","s":1,"sess":{"id":""}})", R"({"o":"a","s":1,"sess":{"id":"x","record":{}}})",
                   R"({"o":"a","s":1,"sess":{"id":"x","record":5}})"})
    EXPECT_FALSE(decode(bad)) << bad;
}

TEST(LogRecord, TextThatIsNotARecordIsRefusedNotThrown) {
  for (auto bad : {"", "{", "[]", "{}", R"({"o":"a"})", R"({"o":"a","s":0})", R"({"o":5,"s":1})",
                   R"({"o":"a","s":1,"c":{"kind":"x","op":"added"}})",
                   R"({"o":"a","s":1,"c":{"kind":"tool","op":"gone"}})", R"({"o":"a","s":1,"u":7})",
                   R"({"o":"a","s":"1"})"})
    EXPECT_FALSE(decode(bad)) << bad;
}

TEST(LogRecord, InvalidUtf8FromTheApplicationIsReplacedNotThrown) {
  log_record r;
  r.origin = "n";
  r.seq = 1;
  r.updated_uri = std::string("file:///bad\xff");
  auto back = decode(encode(r));
  ASSERT_TRUE(back);
  EXPECT_EQ(*back->updated_uri, "file:///bad\xef\xbf\xbd");
}

TEST(Replica, ADataOnlyResourceIsRecreatedElsewhereWithItsContents) {
  registry origin, other;
  auto e = add_resource(origin, text_resource("test://a", "hello"));
  auto rep = replica_of(origin, e);
  ASSERT_TRUE(rep.contains("put"));
  ASSERT_TRUE(apply_replica(other, rep).applied);
  ASSERT_EQ(other.resources.count("test://a"), 1u);
  auto& copy = other.resources.at("test://a");
  EXPECT_EQ(copy.descriptor(), origin.resources.at("test://a").descriptor());
  EXPECT_EQ(copy.list_order, "b");
  ASSERT_EQ(copy.contents.size(), 1u);
  EXPECT_EQ(copy.contents[0].to_json(), origin.resources.at("test://a").contents[0].to_json());
  EXPECT_EQ(other.resource_listing.size(), 1u);

  // New contents: the whole resource again.
  auto c = set_resource_contents(origin, "test://a", {resource_contents::make_blob("test://a", "aGk=")});
  ASSERT_TRUE(apply_replica(other, replica_of(origin, c)).applied);
  EXPECT_EQ(other.resources.at("test://a").contents[0].blob, "aGk=");
}

TEST(Replica, RemovalsCrossForEveryKindAndCodeDoesNot) {
  registry origin, other;
  resource with_reader = text_resource("test://r", "x");
  with_reader.reader = [](const std::string&, request_context&) { return std::vector<resource_contents>{}; };
  EXPECT_TRUE(replica_of(origin, add_resource(origin, with_reader)).is_null());
  tool t;
  t.name = "t";
  t.input_schema = {{"type", "object"}};
  t.handler = [](const json&, request_context&) { return tool_result::text(""); };
  EXPECT_TRUE(replica_of(origin, add_tool(origin, t)).is_null());
  ASSERT_TRUE(add_tool(other, t).applied); // the application registers it on every node
  auto removed = replica_of(origin, remove_tool(origin, "t"));
  EXPECT_EQ(removed, (json{{"remove", {{"kind", "tool"}, {"key", "t"}}}}));
  EXPECT_TRUE(apply_replica(other, removed).applied);
  EXPECT_EQ(other.tools.count("t"), 0u);
  EXPECT_TRUE(replica_of(origin, remove_tool(origin, "t")).is_null()); // not applied: nothing
}

TEST(Replica, WhatIsNotAReplicaChangesNothing) {
  registry reg;
  for (auto bad : {json(), json(1), json::object(), json{{"put", 1}}, json{{"remove", {{"kind", "nope"}}}},
                   json{{"put", {{"uri", ""}}}}})
    EXPECT_FALSE(apply_replica(reg, bad).applied) << bad.dump();
  EXPECT_TRUE(reg.resources.empty());
}

TEST(RequestStateSeal, NodesSharingASecretOpenEachOthersStateAndNoOneElses) {
  auto a = request_state_seal::for_secret("cluster secret");
  auto b = request_state_seal::for_secret("cluster secret");
  auto other = request_state_seal::for_secret("another");
  auto sealed = a.seal({{"round", 2}});
  EXPECT_EQ(b.open(sealed), (json{{"round", 2}}));
  EXPECT_FALSE(other.open(sealed));
  EXPECT_FALSE(request_state_seal::for_secret("").open(sealed)); // empty: a random key
}

} // namespace
} // namespace cafmcp::protocol

// The pure parts of cafmcp-check: single-message judgements and the report.
#include <gtest/gtest.h>

#include "check/report.hpp"
#include "check/shape.hpp"

namespace cafmcp::check {
namespace {

json parse(const char* s) { return json::parse(s); }

TEST(NotificationShape, WellFormedNotificationsPass) {
  EXPECT_FALSE(
    notification_shape_problem(parse(R"({"jsonrpc":"2.0","method":"notifications/tools/list_changed"})")));
  EXPECT_FALSE(notification_shape_problem(
    parse(R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"a://b"}})")));
}

TEST(NotificationShape, EachDefectIsNamed) {
  auto problem = [](const char* s) { return notification_shape_problem(json::parse(s)).value_or(""); };
  EXPECT_NE(problem(R"({"jsonrpc":"2.0","method":"notifications/x","params":null})").find("params is null"),
            std::string::npos);
  EXPECT_NE(problem(R"({"jsonrpc":"2.0","method":"notifications/x","params":[]})").find("params is array"),
            std::string::npos);
  EXPECT_NE(problem(R"({"jsonrpc":"2.0","id":3,"method":"notifications/x"})").find("carries an id"),
            std::string::npos);
  EXPECT_NE(problem(R"({"jsonrpc":"2.0","id":null,"method":"notifications/x"})").find("carries an id"),
            std::string::npos);
  EXPECT_NE(problem(R"({"method":"notifications/x"})").find("jsonrpc"), std::string::npos);
  EXPECT_NE(problem(R"({"jsonrpc":"2.0","method":"notifications/x","extra":1})").find("extra"),
            std::string::npos);
  EXPECT_NE(problem(R"({"cafmcp-check/unparsable":"{oops"})").find("not JSON"), std::string::npos);
}

TEST(OperationMetadata, InParamsOrMeta) {
  EXPECT_TRUE(has_operation_metadata(parse(R"({"method":"m","params":{"operation":"added","name":"t"}})")));
  EXPECT_TRUE(has_operation_metadata(
    parse(R"({"method":"m","params":{"_meta":{"io.cafmcp/change":{"operation":"removed"}}}})")));
  EXPECT_FALSE(has_operation_metadata(parse(R"({"method":"m"})")));
  EXPECT_FALSE(has_operation_metadata(parse(R"({"method":"m","params":{"_meta":{"traceparent":"x"}}})")));
}

TEST(Mentions, ExactKeyOnly) {
  auto n = parse(R"({"method":"m","params":{"name":"check-15-tool"}})");
  EXPECT_TRUE(mentions(n, "check-15-tool"));
  EXPECT_FALSE(mentions(n, "check-1")); // a prefix is not a mention
  EXPECT_FALSE(mentions(parse(R"({"method":"m"})"), "check-15-tool"));
}

TEST(DateTime, RFC3339AsTasksWriteIt) {
  for (const char* ok : {"2026-11-27T03:00:00Z", "2026-11-27T03:00:00.123Z", "2026-11-27T03:00:00+01:00",
                         "2026-11-27T03:00:00.5-05:30"})
    EXPECT_TRUE(is_date_time(ok)) << ok;
  for (const char* bad : {"", "2026-11-27", "2026-11-27 03:00:00Z", "2026-11-27T03:00:00", "2026-11-27T03:00:00.Z",
                          "2026-11-27T03:00:00Zx", "2026-11-27T03:00:00+0100", "26-11-27T03:00:00Z",
                          "2026-11-27T03:00:00+01:00:00"})
    EXPECT_FALSE(is_date_time(bad)) << bad;
  // std::regex recursed once per digit here: a megabyte of them crashed.
  const std::string digits(1 << 20, '7');
  EXPECT_TRUE(is_date_time("2026-11-27T03:00:00." + digits + "Z"));
  EXPECT_FALSE(is_date_time("2026-11-27T03:00:00." + digits));
}

TEST(Report, JsonAndTextCountEveryVerdict) {
  report r;
  r.add({"a", "first", "spec §1", verdict::pass, ""});
  r.add({"b", "second", "spec §2", verdict::fail, "why"});
  r.add({"c", "third", "spec §3", verdict::info, "note"});
  EXPECT_TRUE(r.any_fail());
  auto j = r.to_json("target", "stdio");
  EXPECT_EQ(j["checks"].size(), 3u);
  EXPECT_EQ(j["checks"][1]["status"], "FAIL");
  EXPECT_EQ(j["checks"][1]["spec"], "spec §2");
  EXPECT_EQ(j["summary"], (json{{"pass", 1}, {"fail", 1}, {"skip", 0}, {"info", 1}}));
  auto text = r.to_text("target", "stdio");
  EXPECT_NE(text.find("FAIL  b  second"), std::string::npos);
  EXPECT_NE(text.find("1 passed, 1 failed, 0 skipped, 1 info"), std::string::npos);
}

} // namespace
} // namespace cafmcp::check

// W3C tracestate: the grammar, limits, and how updates reorder it.
#include <gtest/gtest.h>

#include "cafmcp/otel/trace_state.hpp"

namespace cafmcp::otel {
namespace {

TEST(TraceState, ParsesMembersInOrder) {
  auto ts = trace_state::parse("rojo=00f067aa0ba902b7,congo=t61rcWkgMzE, vendor@sys=x y");
  ASSERT_TRUE(ts);
  EXPECT_EQ(ts->size(), 3u);
  EXPECT_EQ(ts->get("congo"), "t61rcWkgMzE");
  EXPECT_EQ(ts->get("vendor@sys"), "x y"); // inner spaces belong to the value
  EXPECT_FALSE(ts->get("missing"));
  EXPECT_EQ(ts->to_header(), "rojo=00f067aa0ba902b7,congo=t61rcWkgMzE,vendor@sys=x y");
}

TEST(TraceState, EmptyHeaderAndEmptyMembersAreFine) {
  EXPECT_TRUE(trace_state::parse("")->empty());
  EXPECT_EQ(trace_state::parse(" , a=1 ,\t,")->to_header(), "a=1");
}

TEST(TraceState, RejectsWhatTheGrammarForbids) {
  for (const char* bad : {
         "a",       // no '='
         "=1",      // no key
         "a=",      // no value
         "A=1",     // uppercase key
         "1a=1",    // a simple key starts with a letter
         "a b=1",   // space inside a key
         "a=1,a=2", // duplicate key
         "a=1,b",   // one bad member spoils the header
       })
    EXPECT_FALSE(trace_state::parse(bad)) << bad;
  EXPECT_FALSE(trace_state::parse("a=b=c"));                            // '=' inside a value
  EXPECT_FALSE(trace_state::parse("a=\x7f"));                           // outside printable ASCII
  EXPECT_FALSE(trace_state::parse("t@" + std::string(15, 's') + "=1")); // system id > 14
  EXPECT_TRUE(trace_state::parse("1tenant@sys=1"));                     // tenant ids may start with a digit
  EXPECT_FALSE(trace_state::parse(std::string(257, 'k') + "=1"));
  EXPECT_TRUE(trace_state::parse(std::string(256, 'k') + "=" + std::string(256, 'v')));
  EXPECT_FALSE(trace_state::parse("k=" + std::string(257, 'v')));
}

TEST(TraceState, AtMostThirtyTwoMembers) {
  std::string header;
  for (int i = 0; i < 32; ++i)
    header += (i ? "," : "") + std::string("k") + std::to_string(i) + "=v";
  EXPECT_TRUE(trace_state::parse(header));
  EXPECT_FALSE(trace_state::parse(header + ",k32=v"));
}

TEST(TraceState, AnUpdatedEntryMovesToTheFront) {
  auto ts = *trace_state::parse("a=1,b=2,c=3");
  EXPECT_TRUE(ts.set("b", "20"));
  EXPECT_EQ(ts.to_header(), "b=20,a=1,c=3");
  EXPECT_TRUE(ts.set("new", "x"));
  EXPECT_EQ(ts.to_header(), "new=x,b=20,a=1,c=3");
  EXPECT_FALSE(ts.set("Bad", "x"));
  EXPECT_FALSE(ts.set("ok", "trailing "));
  EXPECT_EQ(ts.size(), 4u);
  EXPECT_TRUE(ts.erase("a"));
  EXPECT_FALSE(ts.erase("a"));
  EXPECT_EQ(ts.to_header(), "new=x,b=20,c=3");
}

TEST(TraceState, AFullListLosesItsOldestMember) {
  trace_state ts;
  for (int i = 0; i < 32; ++i)
    ASSERT_TRUE(ts.set("k" + std::to_string(i), "v"));
  EXPECT_TRUE(ts.set("newest", "v"));
  EXPECT_EQ(ts.size(), 32u);
  EXPECT_TRUE(ts.get("newest"));
  EXPECT_FALSE(ts.get("k0")); // set first, so last in the list
  EXPECT_TRUE(ts.get("k1"));
}

} // namespace
} // namespace cafmcp::otel

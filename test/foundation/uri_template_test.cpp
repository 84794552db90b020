// RFC 6570 levels 1-3: expansion (the RFC's own examples) and matching.
#include <gtest/gtest.h>

#include "cafmcp/uri_template.hpp"

namespace cafmcp {
namespace {

const uri_template::variables rfc = {{"var", "value"}, {"hello", "Hello World!"},
                                     {"path", "/foo/bar"}, {"x", "1024"}, {"y", "768"},
                                     {"empty", ""}};

std::string expand(const std::string& t) { return uri_template(t).expand(rfc); }

TEST(UriTemplate, ExpandsLevelOneAndTwoAsTheRfcShows) {
  EXPECT_EQ(expand("{var}"), "value");
  EXPECT_EQ(expand("{hello}"), "Hello%20World%21");
  EXPECT_EQ(expand("{+var}"), "value");
  EXPECT_EQ(expand("{+hello}"), "Hello%20World!");
  EXPECT_EQ(expand("{+path}/here"), "/foo/bar/here");
  EXPECT_EQ(expand("here?ref={+path}"), "here?ref=/foo/bar");
  EXPECT_EQ(expand("X{#var}"), "X#value");
  EXPECT_EQ(expand("X{#hello}"), "X#Hello%20World!");
}

TEST(UriTemplate, ExpandsLevelThreeAsTheRfcShows) {
  EXPECT_EQ(expand("map?{x,y}"), "map?1024,768");
  EXPECT_EQ(expand("{x,hello,y}"), "1024,Hello%20World%21,768");
  EXPECT_EQ(expand("{+x,hello,y}"), "1024,Hello%20World!,768");
  EXPECT_EQ(expand("{+path,x}/here"), "/foo/bar,1024/here");
  EXPECT_EQ(expand("{#x,hello,y}"), "#1024,Hello%20World!,768");
  EXPECT_EQ(expand("X{.var}"), "X.value");
  EXPECT_EQ(expand("X{.x,y}"), "X.1024.768");
  EXPECT_EQ(expand("{/var}"), "/value");
  EXPECT_EQ(expand("{/var,x}/here"), "/value/1024/here");
  EXPECT_EQ(expand("{;x,y}"), ";x=1024;y=768");
  EXPECT_EQ(expand("{;x,y,empty}"), ";x=1024;y=768;empty");
  EXPECT_EQ(expand("{?x,y}"), "?x=1024&y=768");
  EXPECT_EQ(expand("{?x,y,empty}"), "?x=1024&y=768&empty=");
  EXPECT_EQ(expand("?fixed=yes{&x}"), "?fixed=yes&x=1024");
  EXPECT_EQ(expand("{undef}"), "");
}

TEST(UriTemplate, RefusesMalformedAndLevelFourTemplates) {
  EXPECT_THROW(uri_template("a{b"), std::invalid_argument);
  EXPECT_THROW(uri_template("a}b"), std::invalid_argument);
  EXPECT_THROW(uri_template("{var:3}"), std::invalid_argument);
  EXPECT_THROW(uri_template("{list*}"), std::invalid_argument);
  EXPECT_THROW(uri_template("{=x}"), std::invalid_argument);
  EXPECT_THROW(uri_template("{}"), std::invalid_argument);
}

TEST(UriTemplate, MatchesOneSegmentForSimpleExpressions) {
  uri_template t("test://template/{id}/data");
  auto m = t.match("test://template/123/data");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at("id"), "123");
  EXPECT_FALSE(t.match("test://template/1/2/data"));
  EXPECT_FALSE(t.match("test://other/123/data"));
  EXPECT_FALSE(t.match("test://template/123/data/extra"));
}

TEST(UriTemplate, ReservedExpressionsSpanSegments) {
  uri_template t("vault://note/{+path}");
  auto m = t.match("vault://note/a/b/c.md");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at("path"), "a/b/c.md");
}

TEST(UriTemplate, MatchDecodesAndRoundTripsExpand) {
  for (auto text : {"mem://{a}/{b}", "x{/a,b}", "q{?a,b}", "f{#a}", "p{;a,b}", "d{.a}"}) {
    uri_template t(text);
    uri_template::variables vars = {{"a", "one two"}, {"b", "3"}};
    if (t.variable_names().size() == 1)
      vars.erase("b");
    auto m = t.match(t.expand(vars));
    ASSERT_TRUE(m) << text << " -> " << t.expand(vars);
    EXPECT_EQ(*m, vars) << text;
  }
}

TEST(UriTemplate, QueryParametersMayBeMissing) {
  uri_template t("search{?q,lang}");
  auto m = t.match("search?q=cats");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->at("q"), "cats");
  EXPECT_FALSE(m->count("lang"));
  EXPECT_TRUE(t.match("search"));
}

} // namespace
} // namespace cafmcp

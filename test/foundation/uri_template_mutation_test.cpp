// uri_template against damage from both sides: template texts a server
// lists (a client expands them; a hostile server chooses them) and URIs a
// client asks for (a server matches them). A malformed template is refused
// with invalid_argument and nothing else; a template built is safe to
// expand and match with anything; and a match is an inverse of expansion:
// expanding what a URI matched with matches again, to the same values.
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "cafmcp/uri_template.hpp"

#include "mutator.hpp"

namespace cafmcp {
namespace {

const std::vector<std::string> templates = {
  "test://template/{id}/data",        "file:///{+path}",
  "db://{table}/rows{?limit,offset}", "api://x{/segments}{#frag}",
  "mail://{user}@{host}{;ver}",       "q://s{?a}{&b}{.ext}",
};

const std::vector<std::string> uris = {
  "test://template/7/data", "file:///a/b%20c.txt",          "db://users/rows?limit=10&offset=20",
  "api://x/one#top",        "mail://ann@example.org;ver=2", "q://s?a=1&b=%2F.json",
};

TEST(UriTemplateMutation, DamagedTemplatesAreRefusedOrSafeToUse) {
  test::mutator mutate(20261123);
  int built = 0, refused = 0;
  for (int i = 0; i < 20000; ++i) {
    auto text = mutate(templates[static_cast<std::size_t>(i) % templates.size()]);
    try {
      uri_template t(text);
      ++built;
      uri_template::variables vars;
      for (auto& name : t.variable_names())
        vars[name] = mutate("v/a l%u?e");
      auto expanded = t.expand(vars); // a throw fails the test
      t.match(expanded);
      t.match(mutate(uris[static_cast<std::size_t>(i) % uris.size()]));
    } catch (const std::invalid_argument&) {
      ++refused;
    }
  }
  EXPECT_GT(built, 1000);
  EXPECT_GT(refused, 1000);
}

// Templates whose expressions are told apart by characters their values
// cannot hold unencoded. (`{name}{.ext}` cannot be: a value may hold '.';
// such a template matches, but which split it picks is a choice.)
const std::vector<std::pair<std::string, std::string>> unambiguous = {
  {"test://template/{id}/data", "test://template/7/data"},
  {"file:///{+path}", "file:///a/b%20c.txt"},
  {"db://{table}/rows{?limit,offset}", "db://users/rows?limit=10&offset=20"},
  {"api://x{/segments}{#frag}", "api://x/one#top"},
  {"mail://{user}@{host}{;ver}", "mail://ann@example.org;ver=2"},
  {"q://s{?a}{&b}", "q://s?a=1&b=%2F.json"},
};

TEST(UriTemplateMutation, WhatADamagedUriMatchesExpandsToAMatchOfTheSameValues) {
  test::mutator mutate(20261124);
  int matched = 0;
  for (int i = 0; i < 40000; ++i) {
    auto& [text, example] = unambiguous[static_cast<std::size_t>(i) % unambiguous.size()];
    uri_template t(text);
    auto uri = mutate(example);
    auto vars = t.match(uri);
    if (!vars)
      continue;
    ++matched;
    auto again = t.expand(*vars);
    auto back = t.match(again);
    ASSERT_TRUE(back) << t.text() << " matched " << uri << " but not its own expansion " << again;
    EXPECT_EQ(*back, *vars) << t.text() << ": " << uri << " -> " << again;
    if (HasFailure())
      return;
  }
  EXPECT_GT(matched, 1000);
}

} // namespace
} // namespace cafmcp

// What a verified caller may list and use follows its token's scopes.
#include <gtest/gtest.h>

#include "protocol/dispatch.hpp"
#include "protocol/mutation.hpp"
#include "protocol/stateless.hpp"

namespace cafmcp::protocol {
namespace {

struct ScopedDispatch : ::testing::Test {
  registry reg;
  server_options opts;
  auth::identity reader{"alice", "app", {"mcp:read"}, json::object(), std::nullopt};
  auth::identity admin{"root", "app", {"mcp:read", "mcp:admin"}, json::object(), std::nullopt};

  void SetUp() override {
    tool open;
    open.name = "echo";
    open.handler = [](const json&, request_context&) { return tool_result::text("hi"); };
    tool guarded;
    guarded.name = "wipe";
    guarded.handler = open.handler;
    guarded.scopes = {"mcp:admin"};
    add_tool(reg, open);
    add_tool(reg, guarded);
    resource pub;
    pub.uri = pub.name = "test://public";
    pub.contents = {resource_contents::make_text("test://public", "p")};
    resource secret;
    secret.uri = secret.name = "test://secret";
    secret.contents = {resource_contents::make_text("test://secret", "s")};
    secret.scopes = {"mcp:admin"};
    add_resource(reg, pub);
    add_resource(reg, secret);
    resource_template files;
    files.uri_template = "file:///{name}";
    files.name = "files";
    files.reader = [](const std::string& uri, request_context&) {
      return std::vector<resource_contents>{resource_contents::make_text(uri, "f")};
    };
    files.scopes = {"files:read"};
    add_template(reg, files);
    prompt p;
    p.name = "audit";
    p.handler = [](const std::map<std::string, std::string>&, request_context&) { return prompt_result{}; };
    p.scopes = {"mcp:admin"};
    add_prompt(reg, p);
  }

  json listed(std::string_view method, const auth::identity* who) {
    auto r = dispatch(reg, opts, method, json::object(), who);
    return std::get<json>(std::get<outcome>(r));
  }
  std::optional<jsonrpc::error> refusal(std::string_view method, json params, const auth::identity* who) {
    auto r = dispatch(reg, opts, method, params, who);
    if (auto* o = std::get_if<outcome>(&r))
      if (auto* e = std::get_if<jsonrpc::error>(o))
        return *e;
    return std::nullopt;
  }
};

std::vector<std::string> names(const json& list, const char* field, const char* key) {
  std::vector<std::string> out;
  for (auto& item : list[field])
    out.push_back(item[key].get<std::string>());
  return out;
}

TEST_F(ScopedDispatch, ListsShowOnlyWhatTheCallersScopesAllow) {
  EXPECT_EQ(names(listed("tools/list", &reader), "tools", "name"), (std::vector<std::string>{"echo"}));
  EXPECT_EQ(names(listed("tools/list", &admin), "tools", "name"), (std::vector<std::string>{"echo", "wipe"}));
  EXPECT_EQ(names(listed("resources/list", &reader), "resources", "uri"),
            (std::vector<std::string>{"test://public"}));
  EXPECT_EQ(listed("resources/templates/list", &admin)["resourceTemplates"].size(), 0u);
  EXPECT_EQ(listed("prompts/list", &reader)["prompts"].size(), 0u);
  EXPECT_EQ(listed("prompts/list", &admin)["prompts"].size(), 1u);
  // No verifier, no caller: everything.
  EXPECT_EQ(listed("tools/list", nullptr)["tools"].size(), 2u);
  EXPECT_EQ(listed("resources/templates/list", nullptr)["resourceTemplates"].size(), 1u);
}

TEST_F(ScopedDispatch, UsingWhatTheScopesDoNotAllowIsRefusedNamingTheScope) {
  auto e = refusal("tools/call", {{"name", "wipe"}}, &reader);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->code, jsonrpc::code::insufficient_scope);
  EXPECT_EQ(e->message, "Insufficient scope: tool wipe needs scope mcp:admin");
  EXPECT_EQ((*e->data)["requiredScopes"], json::array({"mcp:admin"}));
  EXPECT_EQ(refusal("resources/read", {{"uri", "test://secret"}}, &reader)->code, jsonrpc::code::insufficient_scope);
  EXPECT_EQ((*refusal("resources/read", {{"uri", "file:///a"}}, &admin)->data)["requiredScopes"],
            json::array({"files:read"}));
  EXPECT_EQ(refusal("prompts/get", {{"name", "audit"}}, &reader)->code, jsonrpc::code::insufficient_scope);
  EXPECT_EQ(refusal("completion/complete",
                    {{"ref", {{"type", "ref/prompt"}, {"name", "audit"}}}, {"argument", {{"name", "x"}, {"value", ""}}}},
                    &reader)
              ->code,
            jsonrpc::code::insufficient_scope);
  // Allowed: a job (the handler runs), or the static contents.
  EXPECT_FALSE(refusal("tools/call", {{"name", "wipe"}}, &admin));
  EXPECT_FALSE(refusal("tools/call", {{"name", "echo"}}, &reader));
  EXPECT_FALSE(refusal("resources/read", {{"uri", "test://secret"}}, &admin));
  EXPECT_FALSE(refusal("tools/call", {{"name", "wipe"}}, nullptr));
}

TEST_F(ScopedDispatch, SubscribingNeedsTheScopesReadingNeeds) {
  EXPECT_FALSE(subscription_refusal(reg, "test://public", &reader));
  EXPECT_EQ(subscription_refusal(reg, "test://secret", &reader)->code, jsonrpc::code::insufficient_scope);
  EXPECT_FALSE(subscription_refusal(reg, "test://secret", &admin));
  auto by_template = subscription_refusal(reg, "file:///notes", &admin); // files:read, which admin lacks
  ASSERT_TRUE(by_template);
  EXPECT_EQ((*by_template->data)["requiredScopes"], json::array({"files:read"}));
  EXPECT_TRUE(subscription_refusal(reg, "file:///{name}", &admin)); // the template's own text
  EXPECT_FALSE(subscription_refusal(reg, "test://secret", nullptr)); // no verifier
}

TEST(StatelessAuth, AResultAVerifiedCallerShapedIsNeverCachedPublicly) {
  server_options opts;
  opts.list_cache = {std::chrono::seconds(5), true};
  json anyone = {{"tools", json::array()}}, someone = anyone;
  finish_stateless_result("tools/list", anyone, opts);
  finish_stateless_result("tools/list", someone, opts, true);
  EXPECT_EQ(anyone["cacheScope"], "public");
  EXPECT_EQ(someone["cacheScope"], "private");
}

} // namespace
} // namespace cafmcp::protocol

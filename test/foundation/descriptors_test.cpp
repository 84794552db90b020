// The MCP 2025-11-25 JSON shapes of registered items: camelCase members,
// optional ones left out rather than sent as null.
#include <gtest/gtest.h>

#include "cafmcp/prompt.hpp"
#include "cafmcp/request_context.hpp"
#include "cafmcp/resource.hpp"
#include "cafmcp/tool.hpp"

namespace cafmcp {
namespace {

// No member anywhere in the tree may be null: MCP clients reject them.
bool has_null(const json& j) {
  if (j.is_null())
    return true;
  if (j.is_structured())
    for (auto& v : j)
      if (has_null(v))
        return true;
  return false;
}

TEST(Descriptors, MinimalResourceHasOnlyUriAndName) {
  resource r;
  r.uri = "test://static/1";
  r.name = "one";
  EXPECT_EQ(r.descriptor(), (json{{"uri", "test://static/1"}, {"name", "one"}}));
}

TEST(Descriptors, FullResourceUsesCamelCaseMembers) {
  resource r;
  r.uri = "file:///a.png";
  r.name = "a";
  r.title = "A picture";
  r.description = "d";
  r.mime_type = "image/png";
  r.annotations = {{"audience", {"user"}}, {"priority", 0.5}};
  r.size = 1234;
  r.icons = json::array({{{"src", "data:image/png;base64,AA=="}}});
  r.meta = {{"k", 1}};
  r.list_order = "zz"; // internal, never on the wire
  r.contents.push_back(resource_contents::make_text("file:///a.png", "x"));
  auto d = r.descriptor();
  EXPECT_EQ(d, (json{{"uri", "file:///a.png"},
                     {"name", "a"},
                     {"title", "A picture"},
                     {"description", "d"},
                     {"mimeType", "image/png"},
                     {"annotations", {{"audience", {"user"}}, {"priority", 0.5}}},
                     {"size", 1234},
                     {"icons", json::array({{{"src", "data:image/png;base64,AA=="}}})},
                     {"_meta", {{"k", 1}}}}));
  EXPECT_TRUE(d["size"].is_number_unsigned());
}

TEST(Descriptors, ResourceTemplateUsesUriTemplate) {
  resource_template t;
  t.uri_template = "test://template/{id}/data";
  t.name = "data";
  EXPECT_EQ(t.descriptor(), (json{{"uriTemplate", "test://template/{id}/data"}, {"name", "data"}}));
  t.mime_type = "application/json";
  t.description = "by id";
  t.completions["id"] = [](const std::string&, const std::map<std::string, std::string>&) {
    return std::vector<std::string>{};
  };
  auto d = t.descriptor();
  EXPECT_EQ(d["mimeType"], "application/json");
  EXPECT_EQ(d["description"], "by id");
  EXPECT_FALSE(d.contains("completions"));
  EXPECT_FALSE(d.contains("uri"));
  EXPECT_FALSE(has_null(d));
}

TEST(Descriptors, TextContentsCarryTextAndOptionalMime) {
  EXPECT_EQ(resource_contents::make_text("u://1", "hello").to_json(),
            (json{{"uri", "u://1"}, {"text", "hello"}}));
  EXPECT_EQ(resource_contents::make_text("u://1", "hello", "text/plain").to_json(),
            (json{{"uri", "u://1"}, {"mimeType", "text/plain"}, {"text", "hello"}}));
}

TEST(Descriptors, BlobContentsCarryBlobNotText) {
  auto c = resource_contents::make_blob("u://b", "AAEC", "application/octet-stream");
  c.meta = {{"etag", "1"}};
  EXPECT_EQ(c.to_json(), (json{{"uri", "u://b"},
                               {"mimeType", "application/octet-stream"},
                               {"blob", "AAEC"},
                               {"_meta", {{"etag", "1"}}}}));
}

TEST(Descriptors, MinimalToolHasNameAndObjectInputSchema) {
  tool t;
  t.name = "echo";
  EXPECT_EQ(t.descriptor(), (json{{"name", "echo"}, {"inputSchema", {{"type", "object"}}}}));
  t.input_schema = nullptr; // never sent as null: MCP requires an object
  EXPECT_EQ(t.descriptor()["inputSchema"], (json{{"type", "object"}}));
}

TEST(Descriptors, FullToolDescriptor) {
  tool t;
  t.name = "add";
  t.title = "Add";
  t.description = "Adds two numbers";
  t.input_schema = {{"type", "object"},
                    {"properties", {{"a", {{"type", "number"}}}, {"b", {{"type", "number"}}}}},
                    {"required", {"a", "b"}}};
  t.output_schema = json{{"type", "object"}, {"properties", {{"sum", {{"type", "number"}}}}}};
  t.annotations = {{"readOnlyHint", true}};
  t.meta = {{"x", "y"}};
  auto d = t.descriptor();
  EXPECT_EQ(d["name"], "add");
  EXPECT_EQ(d["title"], "Add");
  EXPECT_EQ(d["description"], "Adds two numbers");
  EXPECT_EQ(d["inputSchema"], t.input_schema);
  EXPECT_EQ(d["outputSchema"], *t.output_schema);
  EXPECT_EQ(d["annotations"], t.annotations);
  EXPECT_EQ(d["_meta"], t.meta);
  EXPECT_FALSE(d.contains("icons"));
  EXPECT_FALSE(d.contains("handler"));
  EXPECT_FALSE(has_null(d));
}

TEST(Descriptors, TextResultIsOneTextBlock) {
  EXPECT_EQ(tool_result::text("hi").to_json(), (json{{"content", {{{"type", "text"}, {"text", "hi"}}}}}));
}

TEST(Descriptors, ErrorResultSetsIsError) {
  auto j = tool_result::error("bad input").to_json();
  EXPECT_EQ(j["isError"], true);
  EXPECT_EQ(j["content"][0]["text"], "bad input");
  EXPECT_FALSE(tool_result::text("ok").to_json().value("isError", false));
}

TEST(Descriptors, StructuredResultAlsoCarriesItsTextForm) {
  json value = {{"sum", 3}, {"parts", {1, 2}}};
  auto j = tool_result::structured(value).to_json();
  EXPECT_EQ(j["structuredContent"], value);
  ASSERT_EQ(j["content"].size(), 1u);
  EXPECT_EQ(j["content"][0]["type"], "text");
  EXPECT_EQ(json::parse(j["content"][0]["text"].get<std::string>()), value);
}

TEST(Descriptors, AddAppendsBlocksInOrder) {
  auto r = tool_result::text("first");
  r.add(content::image("AAAA", "image/png")).add(content::audio("BBBB", "audio/wav"));
  r.meta = {{"m", 1}};
  auto j = r.to_json();
  ASSERT_EQ(j["content"].size(), 3u);
  EXPECT_EQ(j["content"][1], (json{{"type", "image"}, {"data", "AAAA"}, {"mimeType", "image/png"}}));
  EXPECT_EQ(j["content"][2], (json{{"type", "audio"}, {"data", "BBBB"}, {"mimeType", "audio/wav"}}));
  EXPECT_EQ(j["_meta"], (json{{"m", 1}}));
  EXPECT_FALSE(j.contains("structuredContent"));
}

TEST(Descriptors, ResourceLinkBlock) {
  EXPECT_EQ(content::resource_link("file:///r.txt", "r"),
            (json{{"type", "resource_link"}, {"uri", "file:///r.txt"}, {"name", "r"}}));
  EXPECT_EQ(content::resource_link("file:///r.txt", "r", "text/plain")["mimeType"], "text/plain");
}

TEST(Descriptors, EmbeddedResourceBlocks) {
  EXPECT_EQ(content::embedded_text("u://t", "body", "text/markdown"),
            (json{{"type", "resource"},
                  {"resource", {{"uri", "u://t"}, {"mimeType", "text/markdown"}, {"text", "body"}}}}));
  EXPECT_EQ(content::embedded_blob("u://b", "AAEC", "image/png"),
            (json{{"type", "resource"},
                  {"resource", {{"uri", "u://b"}, {"mimeType", "image/png"}, {"blob", "AAEC"}}}}));
}

TEST(Descriptors, PromptWithoutArgumentsOmitsThem) {
  prompt p;
  p.name = "simple";
  EXPECT_EQ(p.descriptor(), (json{{"name", "simple"}}));
}

TEST(Descriptors, PromptArgumentsCarryRequiredAlways) {
  prompt p;
  p.name = "greet";
  p.title = "Greeting";
  p.description = "Says hello";
  p.arguments.push_back({"name", "Name", "Who to greet", true, {}});
  p.arguments.push_back({"style", std::nullopt, std::nullopt, false, {}});
  p.icons = json::array({{{"src", "https://example.com/i.png"}, {"sizes", {"48x48"}}}});
  auto d = p.descriptor();
  EXPECT_EQ(d["title"], "Greeting");
  EXPECT_EQ(d["description"], "Says hello");
  EXPECT_EQ(d["icons"], p.icons);
  EXPECT_EQ(
    d["arguments"],
    (json::array({{{"name", "name"}, {"title", "Name"}, {"description", "Who to greet"}, {"required", true}},
                  {{"name", "style"}, {"required", false}}})));
  EXPECT_FALSE(has_null(d));
}

TEST(Descriptors, PromptResultListsMessagesAndOptionalDescription) {
  prompt_result r;
  r.messages.push_back({"user", content::text("hello")});
  r.messages.push_back({"assistant", content::text("hi")});
  EXPECT_EQ(r.to_json(),
            (json{{"messages",
                   {{{"role", "user"}, {"content", {{"type", "text"}, {"text", "hello"}}}},
                    {{"role", "assistant"}, {"content", {{"type", "text"}, {"text", "hi"}}}}}}}));
  r.description = "a chat";
  EXPECT_EQ(r.to_json()["description"], "a chat");
  EXPECT_EQ(prompt_result{}.to_json(), (json{{"messages", json::array()}}));
}

TEST(LogLevel, NamesRoundTripInSeverityOrder) {
  const char* names[] = {"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"};
  for (int i = 0; i < 8; ++i) {
    auto level = parse_log_level(names[i]);
    ASSERT_TRUE(level) << names[i];
    EXPECT_EQ(static_cast<int>(*level), i);
    EXPECT_EQ(to_string(*level), names[i]);
  }
  EXPECT_LT(*parse_log_level("debug"), *parse_log_level("emergency"));
}

TEST(LogLevel, UnknownNamesAreRefused) {
  EXPECT_FALSE(parse_log_level("warn"));
  EXPECT_FALSE(parse_log_level("INFO"));
  EXPECT_FALSE(parse_log_level(""));
}

} // namespace
} // namespace cafmcp

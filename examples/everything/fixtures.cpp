// The fixtures of the official conformance suite's server scenarios, with
// the names and shapes its checks look for.
#include "fixtures.hpp"

#include <chrono>
#include <thread>

namespace everything {
namespace {

using cafmcp::json;
using cafmcp::request_context;
using cafmcp::tool_result;
namespace content = cafmcp::content;

// 1x1 PNG and a header-only WAV: the smallest valid media.
constexpr const char* png =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
constexpr const char* wav = "UklGRiQAAABXQVZFZm10IBAAAAABAAEARKwAAIhYAQACABAAZGF0YQAAAAA=";

const json no_args = {{"type", "object"}, {"properties", json::object()}};

json string_args(std::initializer_list<const char*> names) {
  json props = json::object(), required = json::array();
  for (auto n : names) {
    props[n] = {{"type", "string"}};
    required.push_back(n);
  }
  return {{"type", "object"}, {"properties", props}, {"required", required}};
}

// Asks the client and reports its answer as text, or the refusal as a tool error.
tool_result ask_client(request_context& ctx, const std::string& method, json params,
                       const std::string& label) {
  try {
    return tool_result::text(label + ctx.request(method, std::move(params)).dump());
  } catch (const cafmcp::client_request_error& e) {
    return tool_result::error(method + " failed: " + e.what());
  }
}

void add_content_tools(cafmcp::server& srv) {
  srv.add_tool(
    quick_tool("test_simple_text", "Returns simple text content", no_args, [](const json&, request_context&) {
      return tool_result::text("This is a simple text response for testing.");
    }));
  srv.add_tool(
    quick_tool("test_image_content", "Returns image content", no_args, [](const json&, request_context&) {
      tool_result r;
      r.add(content::image(png, "image/png"));
      return r;
    }));
  srv.add_tool(
    quick_tool("test_audio_content", "Returns audio content", no_args, [](const json&, request_context&) {
      tool_result r;
      r.add(content::audio(wav, "audio/wav"));
      return r;
    }));
  srv.add_tool(quick_tool(
    "test_embedded_resource", "Returns an embedded resource", no_args, [](const json&, request_context&) {
      tool_result r;
      r.add(content::embedded_text("test://embedded-resource", "This is an embedded resource content.",
                                   "text/plain"));
      return r;
    }));
  srv.add_tool(quick_tool("test_multiple_content_types", "Returns text, image and resource", no_args,
                          [](const json&, request_context&) {
                            auto r = tool_result::text("Multiple content types test:");
                            r.add(content::image(png, "image/png"));
                            r.add(content::embedded_text("test://mixed-content-resource",
                                                         R"({"test":"data","value":123})",
                                                         "application/json"));
                            return r;
                          }));
  srv.add_tool(quick_tool("test_error_handling", "Always fails, as a tool error", no_args,
                          [](const json&, request_context&) {
                            return tool_result::error("This tool intentionally returns an error for testing");
                          }));
  srv.add_tool(make_tool("test_reconnection",
                         "Closes its stream mid-call; the result follows on reconnection (SEP-1699)", no_args,
                         [](const json&, request_context& ctx) {
                           ctx.release_stream();
                           std::this_thread::sleep_for(std::chrono::milliseconds(100));
                           return tool_result::text("Reconnection test completed successfully.");
                         }));
  cafmcp::tool schema_tool = make_tool(
    "json_schema_2020_12_tool", "Declares a JSON Schema 2020-12 input schema", json::parse(R"({
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "$defs": {"address": {"$anchor": "address", "type": "object",
                "properties": {"street": {"type": "string"}, "city": {"type": "string"}}}},
      "properties": {"name": {"type": "string"}, "address": {"$ref": "#/$defs/address"},
                     "contact": {"anyOf": [{"type": "string", "format": "email"},
                                           {"type": "string", "pattern": "^[0-9-]+$"}]}},
      "additionalProperties": false,
      "allOf": [{"if": {"properties": {"name": {"const": "admin"}}, "required": ["name"]},
                 "then": {"required": ["address"]}, "else": {}}]
    })"),
    [](const json& args, request_context&) { return tool_result::text("Received: " + args.dump()); });
  srv.add_tool(schema_tool);
}

void add_interactive_tools(cafmcp::server& srv) {
  srv.add_tool(make_tool(
    "test_tool_with_logging", "Logs three messages while it runs", no_args,
    [](const json&, request_context& ctx) {
      for (auto msg : {"Tool execution started", "Tool processing data", "Tool execution completed"}) {
        ctx.log(cafmcp::log_level::info, msg);
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
      }
      return tool_result::text("Logging test completed.");
    }));
  srv.add_tool(make_tool("test_tool_with_progress", "Reports progress 0, 50, 100", no_args,
                         [](const json&, request_context& ctx) {
                           for (double p : {0.0, 50.0, 100.0}) {
                             ctx.progress(p, 100.0);
                             std::this_thread::sleep_for(std::chrono::milliseconds(50));
                           }
                           return tool_result::text("Progress test completed.");
                         }));
  srv.add_tool(make_tool(
    "test_sampling", "Asks the client's model", string_args({"prompt"}),
    [](const json& args, request_context& ctx) {
      json params = {
        {"messages", {{{"role", "user"}, {"content", {{"type", "text"}, {"text", args["prompt"]}}}}}},
        {"maxTokens", 100}};
      return ask_client(ctx, "sampling/createMessage", params, "LLM response: ");
    }));
  srv.add_tool(make_tool(
    "test_elicitation", "Asks the user for details", string_args({"message"}),
    [](const json& args, request_context& ctx) {
      json schema = {{"type", "object"},
                     {"properties", {{"username", {{"type", "string"}}}, {"email", {{"type", "string"}}}}},
                     {"required", {"username", "email"}}};
      return ask_client(ctx, "elicitation/create",
                        {{"message", args["message"]}, {"requestedSchema", schema}}, "User response: ");
    }));
  srv.add_tool(make_tool(
    "test_elicitation_sep1034_defaults", "Elicitation with primitive defaults (SEP-1034)", no_args,
    [](const json&, request_context& ctx) {
      json props = {
        {"name", {{"type", "string"}, {"default", "John Doe"}}},
        {"age", {{"type", "integer"}, {"default", 30}}},
        {"score", {{"type", "number"}, {"default", 95.5}}},
        {"status", {{"type", "string"}, {"enum", {"active", "inactive", "pending"}}, {"default", "active"}}},
        {"verified", {{"type", "boolean"}, {"default", true}}}};
      return ask_client(ctx, "elicitation/create",
                        {{"message", "Please review your details"},
                         {"requestedSchema", {{"type", "object"}, {"properties", props}}}},
                        "Elicitation result: ");
    }));
  srv.add_tool(make_tool(
    "test_elicitation_sep1330_enums", "Elicitation with every enum form (SEP-1330)", no_args,
    [](const json&, request_context& ctx) {
      json titled = json::array({{{"const", "value1"}, {"title", "First Option"}},
                                 {{"const", "value2"}, {"title", "Second Option"}},
                                 {{"const", "value3"}, {"title", "Third Option"}}});
      json plain = {"option1", "option2", "option3"};
      json props = {
        {"untitledSingle", {{"type", "string"}, {"enum", plain}}},
        {"titledSingle", {{"type", "string"}, {"oneOf", titled}}},
        {"legacyEnum",
         {{"type", "string"}, {"enum", plain}, {"enumNames", {"Option One", "Option Two", "Option Three"}}}},
        {"untitledMulti", {{"type", "array"}, {"items", {{"type", "string"}, {"enum", plain}}}}},
        {"titledMulti", {{"type", "array"}, {"items", {{"anyOf", titled}}}}}};
      return ask_client(
        ctx, "elicitation/create",
        {{"message", "Pick options"}, {"requestedSchema", {{"type", "object"}, {"properties", props}}}},
        "Elicitation result: ");
    }));
}

void add_resources(cafmcp::server& srv) {
  auto make = [](std::string uri, std::string name, std::string mime, cafmcp::resource_contents c) {
    cafmcp::resource r;
    r.uri = std::move(uri);
    r.name = std::move(name);
    r.description = "Conformance fixture " + r.name;
    r.mime_type = std::move(mime);
    r.contents.push_back(std::move(c));
    return r;
  };
  srv.add_resource(
    make("test://static-text", "static-text", "text/plain",
         cafmcp::resource_contents::make_text(
           "test://static-text", "This is the content of the static text resource.", "text/plain")));
  srv.add_resource(make("test://static-binary", "static-binary", "image/png",
                        cafmcp::resource_contents::make_blob("test://static-binary", png, "image/png")));
  srv.add_resource(make("test://watched-resource", "watched-resource", "text/plain",
                        cafmcp::resource_contents::make_text("test://watched-resource",
                                                             "Watched resource content", "text/plain")));
  cafmcp::resource_template t;
  t.uri_template = "test://template/{id}/data";
  t.name = "template-data";
  t.description = "Data for any id";
  t.mime_type = "application/json";
  t.reader = [](const std::string& uri, request_context&) {
    auto vars = cafmcp::uri_template("test://template/{id}/data").match(uri);
    auto id = vars ? vars->at("id") : std::string();
    json body = {{"id", id}, {"templateTest", true}, {"data", "Data for ID: " + id}};
    return std::vector<cafmcp::resource_contents>{
      cafmcp::resource_contents::make_text(uri, body.dump(), "application/json")};
  };
  t.completions["id"] = [](const std::string& partial, const std::map<std::string, std::string>&) {
    std::vector<std::string> out;
    for (auto id : {"1", "2", "3", "123"})
      if (std::string(id).rfind(partial, 0) == 0)
        out.push_back(id);
    return out;
  };
  srv.add_resource_template(t);
}

cafmcp::prompt_result one_message(json content) {
  cafmcp::prompt_result r;
  r.messages.push_back({"user", std::move(content)});
  return r;
}

void add_prompts(cafmcp::server& srv) {
  cafmcp::prompt simple;
  simple.name = "test_simple_prompt";
  simple.description = "A simple prompt without arguments";
  simple.handler = [](const auto&, request_context&) {
    return one_message(content::text("This is a simple prompt for testing."));
  };
  srv.add_prompt(simple);

  cafmcp::prompt with_args;
  with_args.name = "test_prompt_with_arguments";
  with_args.description = "A prompt with two required arguments";
  with_args.arguments = {{"arg1", std::nullopt, "First test argument", true,
                          [](const std::string& partial, const auto&) {
                            return std::vector<std::string>{partial + "-value", partial + "-other"};
                          }},
                         {"arg2", std::nullopt, "Second test argument", true, {}}};
  with_args.handler = [](const std::map<std::string, std::string>& a, request_context&) {
    return one_message(
      content::text("Prompt with arguments: arg1='" + a.at("arg1") + "', arg2='" + a.at("arg2") + "'"));
  };
  srv.add_prompt(with_args);

  cafmcp::prompt embedded;
  embedded.name = "test_prompt_with_embedded_resource";
  embedded.description = "A prompt that embeds a resource";
  embedded.arguments = {{"resourceUri", std::nullopt, "URI of the resource to embed", true, {}}};
  embedded.handler = [](const std::map<std::string, std::string>& a, request_context&) {
    auto r = one_message(
      content::embedded_text(a.at("resourceUri"), "Embedded resource content for testing.", "text/plain"));
    r.messages.push_back({"user", content::text("Please process the embedded resource above.")});
    return r;
  };
  srv.add_prompt(embedded);

  cafmcp::prompt image;
  image.name = "test_prompt_with_image";
  image.description = "A prompt with an image";
  image.handler = [](const auto&, request_context&) {
    auto r = one_message(content::image(png, "image/png"));
    r.messages.push_back({"user", content::text("Please analyze the image above.")});
    return r;
  };
  srv.add_prompt(image);
}

} // namespace

void install_conformance_fixtures(cafmcp::server& srv) {
  add_content_tools(srv);
  add_interactive_tools(srv);
  add_resources(srv);
  add_prompts(srv);
}

} // namespace everything

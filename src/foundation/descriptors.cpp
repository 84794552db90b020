// The MCP JSON shapes of what authors register. Optional members are left
// out when empty: MCP never wants them as null.
#include "cafmcp/json_rpc.hpp"
#include "cafmcp/prompt.hpp"
#include "cafmcp/resource.hpp"
#include "cafmcp/tool.hpp"

namespace cafmcp {
namespace {

template <class T>
void put(json& j, const char* key, const std::optional<T>& v) {
  if (v)
    j[key] = *v;
}

void put(json& j, const char* key, const json& v) {
  if (!v.is_null())
    j[key] = v;
}

// The optional members resources and templates share.
template <class T>
void put_listing_fields(json& j, const T& item) {
  put(j, "title", item.title);
  put(j, "description", item.description);
  put(j, "mimeType", item.mime_type);
  put(j, "annotations", item.annotations);
}

} // namespace

resource_contents resource_contents::make_text(std::string uri, std::string text,
                                               std::optional<std::string> mime) {
  resource_contents c;
  c.uri = std::move(uri);
  c.text = std::move(text);
  c.mime_type = std::move(mime);
  return c;
}

resource_contents resource_contents::make_blob(std::string uri, std::string base64,
                                               std::optional<std::string> mime) {
  resource_contents c;
  c.uri = std::move(uri);
  c.blob = std::move(base64);
  c.mime_type = std::move(mime);
  return c;
}

json resource_contents::to_json() const {
  json j = {{"uri", uri}};
  put(j, "mimeType", mime_type);
  if (blob)
    j["blob"] = *blob;
  else
    j["text"] = text.value_or("");
  put(j, "_meta", meta);
  return j;
}

json resource::descriptor() const {
  json j = {{"uri", uri}, {"name", name}};
  put_listing_fields(j, *this);
  put(j, "size", size);
  put(j, "icons", icons);
  put(j, "_meta", meta);
  return j;
}

json resource_template::descriptor() const {
  json j = {{"uriTemplate", uri_template}, {"name", name}};
  put_listing_fields(j, *this);
  put(j, "icons", icons);
  put(j, "_meta", meta);
  return j;
}

tool_result tool_result::text(std::string text) {
  tool_result r;
  r.content.push_back(content::text(std::move(text)));
  return r;
}

tool_result tool_result::error(std::string text) {
  auto r = tool_result::text(std::move(text));
  r.is_error = true;
  return r;
}

tool_result tool_result::structured(json value) {
  auto r = tool_result::text(jsonrpc::wire_text(value)); // its text form, invalid UTF-8 replaced
  r.structured_content = std::move(value);
  return r;
}

tool_result& tool_result::add(json block) {
  content.push_back(std::move(block));
  return *this;
}

json tool_result::to_json() const& { return tool_result(*this).to_json(); }

// Moves the parts in: a result is made to be answered once, and a deep
// copy of its content was most of a call's allocations.
json tool_result::to_json() && {
  json j = json::object();
  j["content"] = content.is_array() ? std::move(content) : json::array();
  if (structured_content)
    j["structuredContent"] = std::move(*structured_content);
  if (is_error)
    j["isError"] = true;
  if (!meta.is_null())
    j["_meta"] = std::move(meta);
  return j;
}

namespace content {

// Member by member: an initializer list builds each pair as an array
// first (13 allocations for this block instead of 6).
json text(std::string text) {
  json j = json::object();
  j["type"] = "text";
  j["text"] = std::move(text);
  return j;
}

json image(std::string base64, std::string mime_type) {
  return {{"type", "image"}, {"data", std::move(base64)}, {"mimeType", std::move(mime_type)}};
}

json audio(std::string base64, std::string mime_type) {
  return {{"type", "audio"}, {"data", std::move(base64)}, {"mimeType", std::move(mime_type)}};
}

json embedded_text(std::string uri, std::string text, std::string mime_type) {
  return {{"type", "resource"},
          {"resource",
           resource_contents::make_text(std::move(uri), std::move(text), std::move(mime_type)).to_json()}};
}

json embedded_blob(std::string uri, std::string base64, std::string mime_type) {
  return {{"type", "resource"},
          {"resource",
           resource_contents::make_blob(std::move(uri), std::move(base64), std::move(mime_type)).to_json()}};
}

json resource_link(std::string uri, std::string name, std::optional<std::string> mime) {
  json j = {{"type", "resource_link"}, {"uri", std::move(uri)}, {"name", std::move(name)}};
  put(j, "mimeType", mime);
  return j;
}

} // namespace content

json tool::descriptor() const {
  // MCP requires an inputSchema object even for tools without parameters.
  json j = {{"name", name},
            {"inputSchema", input_schema.is_object() ? input_schema : json{{"type", "object"}}}};
  put(j, "title", title);
  put(j, "description", description);
  put(j, "outputSchema", output_schema);
  put(j, "annotations", annotations);
  put(j, "icons", icons);
  put(j, "_meta", meta);
  if (tasks != task_support::forbidden)
    j["execution"] = {{"taskSupport", tasks == task_support::required ? "required" : "optional"}};
  return j;
}

json prompt_result::to_json() const {
  json msgs = json::array();
  for (auto& m : messages)
    msgs.push_back({{"role", m.role}, {"content", m.content}});
  json j = {{"messages", std::move(msgs)}};
  put(j, "description", description);
  return j;
}

json prompt::descriptor() const {
  json j = {{"name", name}};
  put(j, "title", title);
  put(j, "description", description);
  if (!arguments.empty()) {
    json args = json::array();
    for (auto& a : arguments) {
      json arg = {{"name", a.name}, {"required", a.required}};
      put(arg, "title", a.title);
      put(arg, "description", a.description);
      args.push_back(std::move(arg));
    }
    j["arguments"] = std::move(args);
  }
  put(j, "icons", icons);
  put(j, "_meta", meta);
  return j;
}

} // namespace cafmcp

#include "protocol/stateless.hpp"

#include <array>

#include "cafmcp/protocol_version.hpp"

#include "protocol/lifecycle.hpp"
#include "protocol/task.hpp"

namespace cafmcp::protocol {
namespace {

jsonrpc::error invalid_meta(std::string msg) {
  return {jsonrpc::code::invalid_params, std::move(msg), std::nullopt};
}

const json* meta_of(const json& params) {
  if (!params.is_object())
    return nullptr;
  auto it = params.find("_meta");
  return it != params.end() && it->is_object() ? &*it : nullptr;
}

bool is_cacheable(std::string_view method) {
  return method == "server/discover" || method == "tools/list" || method == "prompts/list"
         || method == "resources/list" || method == "resources/templates/list";
}

} // namespace

bool is_stateless_request(const json& params) {
  auto* meta = meta_of(params);
  return meta && meta->contains(meta_protocol_version);
}

std::variant<request_meta, jsonrpc::error> read_request_meta(const json& params) {
  auto* meta = meta_of(params);
  if (!meta)
    return invalid_meta("Request _meta is required (protocolVersion, clientCapabilities)");
  auto v = meta->find(meta_protocol_version);
  if (v == meta->end() || !v->is_string())
    return invalid_meta("_meta[\"io.modelcontextprotocol/protocolVersion\"] must be a string");
  request_meta out;
  out.protocol_version = v->get<std::string>();
  if (!is_stateless_protocol_version(out.protocol_version))
    return jsonrpc::error{
      jsonrpc::code::unsupported_protocol_version, "Unsupported protocol version: " + out.protocol_version,
      json{{"supported", {stateless_protocol_version}}, {"requested", out.protocol_version}}};
  auto caps = meta->find(meta_client_capabilities);
  if (caps == meta->end() || !caps->is_object())
    return invalid_meta("_meta[\"io.modelcontextprotocol/clientCapabilities\"] must be an object");
  out.client_capabilities = *caps;
  if (auto info = meta->find(meta_client_info); info != meta->end()) {
    if (!info->is_object())
      return invalid_meta("_meta[\"io.modelcontextprotocol/clientInfo\"] must be an object");
    out.client_info = *info;
  }
  if (auto level = meta->find(meta_log_level); level != meta->end()) {
    auto parsed = level->is_string() ? parse_log_level(level->get<std::string>()) : std::nullopt;
    if (!parsed)
      return invalid_meta("_meta[\"io.modelcontextprotocol/logLevel\"] must be a log level name");
    out.level = parsed;
  }
  return out;
}

bool removed_in_stateless(std::string_view method) {
  static constexpr std::array<std::string_view, 5> removed = {"initialize", "ping", "logging/setLevel",
                                                              "resources/subscribe", "resources/unsubscribe"};
  for (auto m : removed)
    if (m == method)
      return true;
  return false;
}

json discover_result(const server_options& opts, const registry& reg) {
  json info = {{"name", opts.name}, {"version", opts.version}};
  if (opts.title)
    info["title"] = *opts.title;
  json caps = server_capabilities(opts, reg);
  if (reg.offers_tasks()) // 2026-07-28: tasks are the io.modelcontextprotocol/tasks extension
    caps["extensions"][std::string(tasks_extension)] = json::object();
  json result = {{"supportedVersions", {stateless_protocol_version}},
                 {"capabilities", std::move(caps)},
                 {"_meta", {{std::string(meta_server_info), std::move(info)}}}};
  if (opts.instructions)
    result["instructions"] = *opts.instructions;
  return result;
}

void finish_stateless_result(std::string_view method, json& result, const server_options& opts,
                             bool per_caller) {
  if (!result.is_object())
    return;
  if (!result.contains("resultType"))
    result["resultType"] = "complete";
  if (result["resultType"] != "complete")
    return; // an input_required result is not cacheable
  const server_options::cache_hint* hint = nullptr;
  if (is_cacheable(method))
    hint = &opts.list_cache;
  else if (method == "resources/read")
    hint = &opts.read_cache;
  if (!hint)
    return;
  if (!result.contains("ttlMs"))
    result["ttlMs"] = hint->ttl.count();
  if (!result.contains("cacheScope"))
    result["cacheScope"] = hint->shared && !per_caller ? "public" : "private";
}

jsonrpc::error stateless_error(jsonrpc::error err) {
  if (err.code == jsonrpc::code::resource_not_found)
    err.code = jsonrpc::code::invalid_params;
  return err;
}

jsonrpc::error missing_client_capability(std::string_view capability) {
  return {jsonrpc::code::missing_client_capability,
          "Missing required client capability: " + std::string(capability),
          json{{"requiredCapabilities", {{std::string(capability), json::object()}}}}};
}

} // namespace cafmcp::protocol

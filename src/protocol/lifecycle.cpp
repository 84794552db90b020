#include "protocol/lifecycle.hpp"

#include "cafmcp/protocol_version.hpp"

namespace cafmcp::protocol {

std::string negotiate_version(std::string_view requested) {
  return std::string(is_supported_protocol_version(requested) ? requested : latest_protocol_version);
}

namespace {

bool declared(capability_mode mode, bool has_items) {
  return mode == capability_mode::on || (mode == capability_mode::automatic && has_items);
}

} // namespace

json server_capabilities(const server_options& opts, const registry& reg) {
  json caps = json::object();
  caps["logging"] = json::object();
  if (opts.completions)
    caps["completions"] = json::object();
  if (declared(opts.tools, !reg.tools.empty()))
    caps["tools"] = {{"listChanged", true}};
  if (declared(opts.prompts, !reg.prompts.empty()))
    caps["prompts"] = {{"listChanged", true}};
  if (declared(opts.resources, !reg.resources.empty() || !reg.templates.empty())) {
    json r = {{"listChanged", true}};
    if (opts.subscriptions)
      r["subscribe"] = true;
    caps["resources"] = std::move(r);
  }
  return caps;
}

json initialize_result(const server_options& opts, const registry& reg, std::string_view requested) {
  json info = {{"name", opts.name}, {"version", opts.version}};
  if (opts.title)
    info["title"] = *opts.title;
  json caps = server_capabilities(opts, reg);
  if (reg.offers_tasks()) // 2025-11-25 experimental tasks: tools/call as a task, list and cancel
    caps["tasks"] = {{"list", json::object()},
                     {"cancel", json::object()},
                     {"requests", {{"tools", {{"call", json::object()}}}}}};
  json result = {{"protocolVersion", negotiate_version(requested)},
                 {"capabilities", std::move(caps)},
                 {"serverInfo", std::move(info)}};
  if (opts.instructions)
    result["instructions"] = *opts.instructions;
  return result;
}

std::optional<jsonrpc::error> check_initialize_params(const json& params) {
  auto bad = [](std::string msg) {
    return jsonrpc::error{jsonrpc::code::invalid_params, std::move(msg), std::nullopt};
  };
  if (!params.is_object())
    return bad("initialize requires params");
  if (!params.contains("protocolVersion") || !params["protocolVersion"].is_string())
    return bad("initialize: protocolVersion must be a string");
  if (params.contains("capabilities") && !params["capabilities"].is_object())
    return bad("initialize: capabilities must be an object");
  if (!params.contains("clientInfo") || !params["clientInfo"].is_object())
    return bad("initialize: clientInfo must be an object");
  const auto& ci = params["clientInfo"];
  if (!ci.contains("name") || !ci["name"].is_string())
    return bad("initialize: clientInfo.name must be a string");
  if (ci.contains("version") && !ci["version"].is_string())
    return bad("initialize: clientInfo.version must be a string");
  return std::nullopt;
}

std::optional<jsonrpc::error> admit_request(phase p, std::string_view method) {
  if (method == "ping")
    return std::nullopt;
  if (method == "initialize") {
    if (p == phase::awaiting_initialize)
      return std::nullopt;
    return jsonrpc::error{jsonrpc::code::invalid_request, "Session already initialized", std::nullopt};
  }
  if (p == phase::awaiting_initialize)
    return jsonrpc::error{jsonrpc::code::invalid_request, "Session not initialized: send initialize first",
                          std::nullopt};
  return std::nullopt;
}

} // namespace cafmcp::protocol

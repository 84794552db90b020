#include "protocol/request_span.hpp"

#include "foundation/json_member.hpp"
#include "protocol/change.hpp"
#include "protocol/operation_metrics.hpp"

namespace cafmcp::protocol {

trace_context trace_context_from_meta(const json& params) {
  trace_context ctx;
  if (!params.is_object())
    return ctx;
  auto meta = params.find("_meta");
  if (meta == params.end() || !meta->is_object())
    return ctx;
  if (auto tp = meta->find("traceparent"); tp != meta->end() && tp->is_string())
    ctx.traceparent = tp->get<std::string>();
  if (auto ts = meta->find("tracestate"); ts != meta->end() && ts->is_string())
    ctx.tracestate = ts->get<std::string>();
  return ctx;
}

namespace {

// A string member of `params`, or null.
const std::string* string_member(const json& params, const char* name) {
  if (!params.is_object())
    return nullptr;
  auto it = params.find(name);
  return it != params.end() && it->is_string() ? &it->get_ref<const std::string&>() : nullptr;
}

std::string id_text(const jsonrpc::request_id& id) {
  if (auto* n = std::get_if<std::int64_t>(&id))
    return std::to_string(*n);
  return std::get<std::string>(id);
}

} // namespace

// Every traced request passes here: its params are read where they are
// (a copy of them was ~1,500 instructions of a tools/call's tracing).
std::unique_ptr<span> start_request_span(tracer* t, const jsonrpc::request& req,
                                         const request_span_facts& facts) {
  if (!t)
    return nullptr;
  static const json no_params = json::object();
  const json& params = req.params ? *req.params : no_params;
  const std::string* target = nullptr;
  if (req.method == "tools/call" || req.method == "prompts/get")
    if (auto* name = string_member(params, "name"); name && !name->empty())
      target = name;
  auto s = t->start(target ? req.method + " " + *target : req.method, span_kind::server,
                    trace_context_from_meta(params));
  if (!s)
    return nullptr;
  s->set_attribute("mcp.method.name", req.method);
  s->set_attribute("mcp.session.id", facts.session_id);
  if (!facts.protocol_version.empty())
    s->set_attribute("mcp.protocol.version", facts.protocol_version);
  s->set_attribute("jsonrpc.request.id", id_text(req.id));
  if (facts.network_transport)
    s->set_attribute("network.transport", std::string(facts.network_transport));
  if (req.method == "tools/call" && target) {
    s->set_attribute("gen_ai.tool.name", *target);
    s->set_attribute("gen_ai.operation.name", std::string("execute_tool"));
  }
  if (req.method == "prompts/get" && target)
    s->set_attribute("gen_ai.prompt.name", *target);
  if (req.method.rfind("resources/", 0) == 0)
    if (auto* uri = string_member(params, "uri"))
      s->set_attribute("mcp.resource.uri", *uri);
  return s;
}

void finish_request_span(span& s, const outcome& result) {
  auto type = error_type_of(result); // the same value the duration metric records
  if (type.empty())
    return;
  if (auto* err = std::get_if<jsonrpc::error>(&result)) {
    s.set_attribute("rpc.response.status_code", type);
    s.set_error(type, err->message);
    return;
  }
  const auto& r = std::get<json>(result);
  std::string text;
  if (r.contains("content") && r["content"].is_array() && !r["content"].empty()
      && r["content"][0].contains("text") && r["content"][0]["text"].is_string())
    text = r["content"][0]["text"].get<std::string>();
  s.set_error(type, text);
}

void inject_trace_context(json& notification, const trace_context& ctx) {
  if (ctx.empty())
    return;
  auto& meta = notification_meta(notification);
  meta["traceparent"] = ctx.traceparent;
  if (!ctx.tracestate.empty())
    meta["tracestate"] = ctx.tracestate;
}

} // namespace cafmcp::protocol

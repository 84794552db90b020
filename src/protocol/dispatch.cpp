#include "protocol/dispatch.hpp"

#include <atomic>

#include "protocol/pagination.hpp"
#include "protocol/stateless.hpp"

namespace cafmcp::protocol {
namespace {

jsonrpc::error invalid_params(std::string msg) {
  return {jsonrpc::code::invalid_params, std::move(msg), std::nullopt};
}

// No verifier (no caller) allows everything; a caller needs every scope
// the item names.
bool allowed(const auth::identity* caller, const std::vector<std::string>& scopes) {
  return !caller || scopes.empty() || caller->has_scopes(scopes);
}

jsonrpc::error insufficient_scope(const std::string& what, const std::vector<std::string>& scopes) {
  std::string names;
  for (auto& s : scopes)
    names += (names.empty() ? "" : " ") + s;
  return {jsonrpc::code::insufficient_scope, "Insufficient scope: " + what + " needs scope " + names,
          json{{"requiredScopes", scopes}}};
}

const std::string* string_param(const json& params, const char* key) {
  if (!params.is_object())
    return nullptr;
  auto it = params.find(key);
  if (it == params.end() || !it->is_string())
    return nullptr;
  return it->get_ptr<const std::string*>();
}

json contents_json(const std::vector<resource_contents>& contents) {
  json arr = json::array();
  for (auto& c : contents)
    arr.push_back(c.to_json());
  return {{"contents", std::move(arr)}};
}

outcome run_reader(const resource_reader& reader, const std::string& uri, request_context& ctx) {
  try {
    return contents_json(reader(uri, ctx));
  } catch (const resource_not_found_error& e) {
    return resource_not_found(e.uri);
  } catch (const std::exception& e) {
    return jsonrpc::error{jsonrpc::code::internal_error, "Reading " + uri + " failed: " + e.what(),
                          std::nullopt};
  }
}

dispatch_result read_resource(const registry& reg, const json& params, const auth::identity* caller) {
  auto uri = string_param(params, "uri");
  if (!uri)
    return outcome{invalid_params("resources/read requires a string uri")};
  if (auto it = reg.resources.find(*uri); it != reg.resources.end()) {
    const resource& r = it->second;
    if (!allowed(caller, r.scopes))
      return outcome{insufficient_scope("resource " + *uri, r.scopes)};
    if (!r.reader)
      return outcome{contents_json(r.contents)};
    return job{[reader = r.reader, u = *uri](request_context& ctx) { return run_reader(reader, u, ctx); },
               r.quick};
  }
  if (auto* t = reg.match_template(*uri); t && t->spec.reader) {
    if (!allowed(caller, t->spec.scopes))
      return outcome{insufficient_scope("resource " + *uri, t->spec.scopes)};
    return job{
      [reader = t->spec.reader, u = *uri](request_context& ctx) { return run_reader(reader, u, ctx); },
      t->spec.quick};
  }
  return outcome{resource_not_found(*uri)};
}

tool_result checked_output(const std::string& name, const schema_validator* output, tool_result result) {
  if (!output || result.is_error)
    return result;
  if (!result.structured_content)
    return tool_result::error("Tool " + name + " declares an outputSchema but returned no structuredContent");
  if (auto violation = output->validate(*result.structured_content))
    return tool_result::error("Tool " + name
                              + " returned structuredContent that does not match its "
                                "outputSchema: "
                              + *violation);
  return result;
}

} // namespace

namespace {

template <class Tools>
const tool_entry* find_named(const Tools& tools, const json& params) {
  auto name = string_param(params, "name");
  if (!name)
    return nullptr;
  auto it = tools.find(*name);
  return it == tools.end() ? nullptr : it->second.get();
}

} // namespace

const tool_entry* named_tool(const tool_map& tools, const json& params) { return find_named(tools, params); }
const tool_entry* named_tool(const tool_index& tools, const json& params) { return find_named(tools, params); }

dispatch_result call_tool(const tool_entry* tool, json& params, const auth::identity* caller) {
  auto name = string_param(params, "name");
  if (!name)
    return outcome{invalid_params("tools/call requires a string name")};
  if (!tool)
    return outcome{invalid_params("Unknown tool: " + *name)};
  if (!allowed(caller, tool->spec.scopes))
    return outcome{insufficient_scope("tool " + *name, tool->spec.scopes)};
  auto given = params.find("arguments");
  if (given != params.end() && !given->is_object())
    return outcome{invalid_params("tools/call: arguments must be an object")};
  // Moved, not copied (dispatch.hpp); an empty object made only where none
  // was given (made and then replaced, it cost an allocation a call).
  json args = given != params.end() ? std::move(*given) : json::object();
  const tool_entry& entry = *tool;
  // SEP-1303: invalid arguments are a tool error the model can read and
  // correct, not a protocol error.
  if (entry.input)
    if (auto violation = entry.input->validate(args))
      return outcome{tool_result::error("Invalid arguments for tool " + *name + ": " + *violation).to_json()};
  // The entry the call runs, held (one reference count), not copies of its
  // handler and name (a std::function and a string to copy and free a call).
  // Entries never change in place (registry.hpp): what runs is what was named.
  if (entry.spec.async_handler)
    return job{nullptr, true,
               [entry = entry.shared_from_this(), args = std::move(args)](request_context& ctx,
                                                                          std::function<void(outcome)> answer) {
                 // What else it throws (request_refused, input_required) is
                 // answered by whoever runs the job: not the "dropped" error
                 // of a reply let go while the exception unwinds.
                 // The reply holds copies of what it needs, never the entry:
                 // a handler may keep its replies in state the entry's
                 // handler owns, and entry -> handler -> reply -> entry is a
                 // cycle nothing frees (LeakSanitizer found it in
                 // AsyncTools.TheCallWaitsForItsReplyWhileTheSessionServesOtherRequests).
                 auto threw = std::make_shared<std::atomic<bool>>(false);
                 tool_reply reply([name = entry->spec.name, output = entry->output, threw,
                                   answer = std::move(answer)](tool_result result) {
                   if (!threw->load())
                     answer(checked_output(name, output.get(), std::move(result)).to_json());
                 });
                 try {
                   entry->spec.async_handler(args, ctx, reply);
                 } catch (const std::exception& e) { // ignored if it answered already
                   reply(tool_result::error("Tool " + entry->spec.name + " failed: " + e.what()));
                 } catch (...) {
                   threw->store(true);
                   throw;
                 }
               }};
  return job{[entry = entry.shared_from_this(), args = std::move(args)](request_context& ctx) -> outcome {
               const auto& handler = entry->spec.handler;
               tool_result result;
               try {
                 result = handler ? handler(args, ctx) : tool_result::error("Tool has no handler");
               } catch (const std::exception& e) {
                 result = tool_result::error("Tool " + entry->spec.name + " failed: " + e.what());
               }
               return checked_output(entry->spec.name, entry->output.get(), std::move(result)).to_json();
             },
             entry.spec.quick};
}

namespace {

dispatch_result get_prompt(const registry& reg, const json& params, const auth::identity* caller) {
  auto name = string_param(params, "name");
  if (!name)
    return outcome{invalid_params("prompts/get requires a string name")};
  auto it = reg.prompts.find(*name);
  if (it == reg.prompts.end())
    return outcome{invalid_params("Unknown prompt: " + *name)};
  if (!allowed(caller, it->second.scopes))
    return outcome{insufficient_scope("prompt " + *name, it->second.scopes)};
  std::map<std::string, std::string> args;
  if (params.contains("arguments")) {
    const auto& a = params["arguments"];
    if (!a.is_object())
      return outcome{invalid_params("prompts/get: arguments must be an object")};
    for (auto& [k, v] : a.items()) {
      if (!v.is_string())
        return outcome{invalid_params("prompts/get: argument " + k + " must be a string")};
      args[k] = v.get<std::string>();
    }
  }
  for (auto& arg : it->second.arguments)
    if (arg.required && !args.count(arg.name))
      return outcome{invalid_params("Missing required argument: " + arg.name)};
  auto run = [handler = it->second.handler, name = it->second.name,
              args = std::move(args)](request_context& ctx) -> outcome {
    try {
      if (!handler)
        return jsonrpc::error{jsonrpc::code::internal_error, "Prompt has no handler", std::nullopt};
      return handler(args, ctx).to_json();
    } catch (const std::exception& e) {
      return jsonrpc::error{jsonrpc::code::internal_error, "Prompt " + name + " failed: " + e.what(),
                            std::nullopt};
    }
  };
  return job{std::move(run), it->second.quick};
}

dispatch_result complete(const registry& reg, const server_options& opts, const json& params,
                         const auth::identity* caller) {
  if (!opts.completions)
    return outcome{jsonrpc::error{jsonrpc::code::method_not_found,
                                  "Completions are not offered by this server", std::nullopt}};
  if (!params.is_object() || !params.contains("ref") || !params["ref"].is_object()
      || !params.contains("argument") || !params["argument"].is_object())
    return outcome{invalid_params("completion/complete requires ref and argument objects")};
  const auto& ref = params["ref"];
  auto type = string_param(ref, "type");
  auto arg_name = string_param(params["argument"], "name");
  auto arg_value = string_param(params["argument"], "value");
  if (!type || !arg_name || !arg_value)
    return outcome{invalid_params("completion/complete: ref.type, argument.name and "
                                  "argument.value must be strings")};
  std::map<std::string, std::string> context;
  if (params.contains("context") && params["context"].is_object() && params["context"].contains("arguments")
      && params["context"]["arguments"].is_object())
    for (auto& [k, v] : params["context"]["arguments"].items())
      if (v.is_string())
        context[k] = v.get<std::string>();

  completion_handler handler;
  if (*type == "ref/prompt") {
    auto name = string_param(ref, "name");
    auto it = name ? reg.prompts.find(*name) : reg.prompts.end();
    if (it == reg.prompts.end())
      return outcome{invalid_params("Unknown prompt: " + (name ? *name : std::string{}))};
    if (!allowed(caller, it->second.scopes))
      return outcome{insufficient_scope("prompt " + *name, it->second.scopes)};
    for (auto& a : it->second.arguments)
      if (a.name == *arg_name)
        handler = a.complete;
  } else if (*type == "ref/resource") {
    auto uri = string_param(ref, "uri");
    auto it = uri ? reg.templates.find(*uri) : reg.templates.end();
    if (it == reg.templates.end())
      return outcome{invalid_params("Unknown resource template: " + (uri ? *uri : std::string{}))};
    if (!allowed(caller, it->second.spec.scopes))
      return outcome{insufficient_scope("resource template " + *uri, it->second.spec.scopes)};
    if (auto h = it->second.spec.completions.find(*arg_name); h != it->second.spec.completions.end())
      handler = h->second;
  } else {
    return outcome{invalid_params("Unknown ref type: " + *type)};
  }
  if (!handler)
    return outcome{json{{"completion", {{"values", json::array()}, {"hasMore", false}}}}};
  return job{[handler, value = *arg_value, context = std::move(context)](request_context&) -> outcome {
    try {
      auto values = handler(value, context);
      std::size_t total = values.size();
      if (values.size() > 100)
        values.resize(100); // the spec's maximum per response
      return json{{"completion", {{"values", values}, {"total", total}, {"hasMore", total > values.size()}}}};
    } catch (const std::exception& e) {
      return jsonrpc::error{jsonrpc::code::internal_error, std::string("Completion failed: ") + e.what(),
                            std::nullopt};
    }
  }};
}

} // namespace

std::optional<jsonrpc::error> subscription_refusal(const registry& reg, const std::string& uri,
                                                   const auth::identity* caller) {
  if (!caller)
    return std::nullopt;
  const std::vector<std::string>* scopes = nullptr;
  if (auto r = reg.resources.find(uri); r != reg.resources.end())
    scopes = &r->second.scopes;
  else if (auto t = reg.templates.find(uri); t != reg.templates.end())
    scopes = &t->second.spec.scopes;
  else if (auto* m = reg.match_template(uri))
    scopes = &m->spec.scopes;
  if (!scopes || allowed(caller, *scopes))
    return std::nullopt;
  return insufficient_scope("resource " + uri, *scopes);
}

jsonrpc::error resource_not_found(const std::string& uri) {
  return {jsonrpc::code::resource_not_found, "Resource not found: " + uri, json{{"uri", uri}}};
}

dispatch_result dispatch(const registry& reg, const server_options& opts, std::string_view method,
                         const json& params, const auth::identity* caller) {
  json copy = params;
  return dispatch(reg, opts, method, copy, caller);
}

dispatch_result dispatch(const registry& reg, const server_options& opts, std::string_view method,
                         json& params, const auth::identity* caller) {
  auto n = opts.page_size ? opts.page_size : 100;
  if (method == "resources/list")
    return outcome{page(
      reg.resource_listing, "resources", "resources", params, n,
      [&reg](const std::string& uri) { return reg.resources.at(uri).descriptor(); },
      [&reg, caller](const std::string& uri) { return allowed(caller, reg.resources.at(uri).scopes); })};
  if (method == "resources/templates/list")
    return outcome{page(
      reg.templates, "templates", "resourceTemplates", params, n,
      [](const template_entry& t) { return t.spec.descriptor(); },
      [caller](const template_entry& t) { return allowed(caller, t.spec.scopes); })};
  if (method == "tools/list")
    return outcome{page(
      reg.tools, "tools", "tools", params, n,
      [](const std::shared_ptr<const tool_entry>& t) { return t->spec.descriptor(); },
      [caller](const std::shared_ptr<const tool_entry>& t) { return allowed(caller, t->spec.scopes); })};
  if (method == "prompts/list")
    return outcome{page(
      reg.prompts, "prompts", "prompts", params, n, [](const prompt& p) { return p.descriptor(); },
      [caller](const prompt& p) { return allowed(caller, p.scopes); })};
  if (method == "resources/read")
    return read_resource(reg, params, caller);
  if (method == "tools/call")
    return call_tool(named_tool(reg.tools, params), params, caller);
  if (method == "prompts/get")
    return get_prompt(reg, params, caller);
  if (method == "completion/complete")
    return complete(reg, opts, params, caller);
  if (method == "server/discover") // only stateless requests get here
    return outcome{discover_result(opts, reg)};
  return outcome{jsonrpc::error{jsonrpc::code::method_not_found, "Method not found: " + std::string(method),
                                std::nullopt}};
}

} // namespace cafmcp::protocol

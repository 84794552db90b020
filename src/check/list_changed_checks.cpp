// notifications/{tools,prompts,resources}/list_changed after each kind of
// change: sent when the kind's listChanged is declared, never otherwise.
#include "check/checks.hpp"
#include "check/shape.hpp"

namespace cafmcp::check {
namespace {

struct step {
  std::string op;   // added / updated / removed
  std::string what; // "an add", ...
  std::string tool; // the mutation driving it
  json args;
};

void judge(context& ctx, const std::string& kind, const char* section, const step& s) {
  std::string id = kind + ".list_changed." + s.op;
  std::string method = "notifications/" + kind + "/list_changed";
  bool declared = ctx.declares(kind, "listChanged");
  std::string title = declared ? method + " after " + s.what + " (listChanged declared)"
                               : "no " + method + " (listChanged not declared)";
  if (s.tool.empty())
    return ctx.record(id, title, section, verdict::skip, "no mutation tool configured for this change");
  auto& p = ctx.primary();
  auto from = p.mark();
  if (auto err = ctx.mutate(p, s.tool, s.args))
    return ctx.record(id, title, section, verdict::skip, "could not drive the change: " + *err);
  if (declared) {
    if (p.wait_notifications(method_is(method), 1, from, ctx.opts.timeout))
      return ctx.record(id, title, section, verdict::pass);
    return ctx.record(id, title, section, verdict::fail,
                      "no " + method + " within " + std::to_string(ctx.opts.timeout.count()) + " ms");
  }
  if (ctx.none_arrives(p, method_is(method), from))
    return ctx.record(id, title, section, verdict::pass);
  ctx.record(id, title, section, verdict::fail, method + " sent although listChanged was not declared");
}

} // namespace

void check_list_changed(context& ctx) {
  auto& m = ctx.opts.mutations;
  auto tool = ctx.unique("tool");
  for (auto& s : {step{"added", "an add", m.add_tool, {{"name", tool}}},
                  step{"updated", "a descriptor update", m.update_tool, {{"name", tool}}},
                  step{"removed", "a removal", m.remove_tool, {{"name", tool}}}})
    judge(ctx, "tools", spec::tools_list_changed, s);
  auto prompt = ctx.unique("prompt");
  for (auto& s : {step{"added", "an add", m.add_prompt, {{"name", prompt}}},
                  step{"updated", "a descriptor update", m.update_prompt, {{"name", prompt}}},
                  step{"removed", "a removal", m.remove_prompt, {{"name", prompt}}}})
    judge(ctx, "prompts", spec::prompts_list_changed, s);
  auto uri = ctx.unique_uri("resource");
  for (auto& s :
       {step{"added", "an add", m.add_resource, {{"uri", uri}, {"name", "check resource"}, {"text", "v1"}}},
        step{"updated",
             "a descriptor update",
             m.update_resource,
             {{"uri", uri}, {"name", "check resource, renamed"}}},
        step{"removed", "a removal", m.remove_resource, {{"uri", uri}}}})
    judge(ctx, "resources", spec::resources_list_changed, s);
}

} // namespace cafmcp::check

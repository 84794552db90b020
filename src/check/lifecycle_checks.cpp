#include "check/checks.hpp"
#include "check/shape.hpp"

namespace cafmcp::check {

bool connect_primary(context& ctx) {
  const std::string id = "capabilities.declared",
                    title = "the server declares its capabilities at initialize";
  try {
    auto p = ctx.open_probe();
    auto init = p->initialize(ctx.opts.timeout);
    p->send_initialized();
    if (p->http() && !p->stream()->wait_get_stream(ctx.opts.timeout))
      ctx.record(
        "transport.get-stream", "the GET stream for server messages opens", spec::sessions, verdict::info,
        "the server offers no GET stream: notifications unrelated to a request cannot reach this client");
    json caps = init.value("capabilities", json());
    if (!caps.is_object()) {
      ctx.record(id, title, spec::capabilities, verdict::fail,
                 "InitializeResult.capabilities is not an object");
      ctx.set_primary(std::move(p), json::object());
      return true;
    }
    std::string flags, wrong;
    if (!init.contains("protocolVersion") || !init["protocolVersion"].is_string())
      wrong += "protocolVersion is not a string; ";
    for (auto [kind, flag] : {std::pair{"tools", "listChanged"},
                              {"prompts", "listChanged"},
                              {"resources", "listChanged"},
                              {"resources", "subscribe"}}) {
      bool on =
        caps.contains(kind) && caps[kind].is_object() && caps[kind].value(flag, json(false)) == json(true);
      flags += std::string(kind) + "." + flag + "=" + (on ? "true" : "false") + " ";
      if (caps.contains(kind) && !caps[kind].is_object())
        wrong += "capabilities." + std::string(kind) + " is not an object; ";
      else if (caps.contains(kind) && caps[kind].contains(flag) && !caps[kind][flag].is_boolean())
        wrong += "capabilities." + std::string(kind) + "." + flag + " is not a boolean (taken as false); ";
    }
    ctx.record(id, title, spec::capabilities, wrong.empty() ? verdict::pass : verdict::fail, wrong + flags);
    ctx.set_primary(std::move(p), caps);
    return true;
  } catch (const std::exception& e) {
    ctx.record(id, title, spec::capabilities, verdict::fail, std::string("no session: ") + e.what());
    return false;
  }
}

// A session that has had its initialize answered but has not said
// `initialized` must not be sent change notifications. Over HTTP another
// session drives the change (and this one's GET stream is already open);
// over stdio the session itself does, as only it can.
void check_nothing_before_initialized(context& ctx) {
  const std::string id = "lifecycle.nothing-before-initialized";
  const std::string title = "no change notification before the client's notifications/initialized";
  auto& tool =
    ctx.opts.mutations.add_tool.empty() ? ctx.opts.mutations.add_prompt : ctx.opts.mutations.add_tool;
  if (tool.empty())
    return ctx.record(id, title, spec::initialized, verdict::skip,
                      "no add_tool or add_prompt mutation configured");
  try {
    auto fresh = ctx.open_probe();
    fresh->initialize(ctx.opts.timeout);
    probe* driver = &ctx.primary();
    if (fresh->http()) {
      fresh->negotiated_only(); // GET stream open, `initialized` not sent
      if (!fresh->stream()->wait_get_stream(ctx.opts.timeout)) {
        ctx.collect(*fresh);
        return ctx.record(id, title, spec::initialized, verdict::skip, "the server opens no GET stream");
      }
    } else {
      driver = fresh.get();
    }
    auto name = ctx.unique("early");
    auto err = ctx.mutate(*driver, tool, {{"name", name}});
    // The barrier on the fresh session answers after anything the server
    // queued for it; then a bounded quiet watch.
    auto changes = [](const json& m) {
      auto method = member_or(m, "method", "");
      return method.find("list_changed") != std::string::npos || method == "notifications/resources/updated";
    };
    bool none = ctx.none_arrives(*fresh, changes, 0);
    auto early = fresh->notifications_before_initialized();
    fresh->send_initialized();
    ctx.collect(*fresh);
    fresh.reset();
    if (driver == &ctx.primary() && !err) // clean up, and keep the primary's view honest
      ctx.mutate(ctx.primary(),
                 tool == ctx.opts.mutations.add_tool ? ctx.opts.mutations.remove_tool
                                                     : ctx.opts.mutations.remove_prompt,
                 {{"name", name}});
    if (!none) {
      std::string what;
      for (auto& n : early)
        if (changes(n))
          what = n.dump();
      return ctx.record(id, title, spec::initialized, verdict::fail, "received before initialized: " + what);
    }
    ctx.record(id, title, spec::initialized, verdict::pass,
               err ? "(the change itself was refused before initialized: " + *err + ")" : "");
  } catch (const std::exception& e) {
    ctx.record(id, title, spec::initialized, verdict::fail, e.what());
  }
}

} // namespace cafmcp::check

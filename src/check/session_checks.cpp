// Checks that need Streamable HTTP: several sessions, and a GET stream that
// can be cut and resumed.
#include "check/checks.hpp"
#include "check/shape.hpp"

namespace cafmcp::check {

// Two sessions end, one politely (DELETE) and one by vanishing (its
// connections just close); the sessions left must still get their
// notifications, the subscribed one its updated and the primary its
// list_changed.
void check_session_isolation(context& ctx) {
  const std::string id = "sessions.ended-session-isolated";
  const std::string title = "a session that ends does not break delivery to the others";
  if (!ctx.is_http())
    return ctx.record(id, title, spec::sessions, verdict::skip, "needs several sessions: HTTP only");
  auto& m = ctx.opts.mutations;
  bool subscribe = ctx.declares("resources", "subscribe") && !m.update_resource.empty();
  bool tools = ctx.declares("tools", "listChanged") && !m.add_tool.empty();
  if (!subscribe && !tools)
    return ctx.record(id, title, spec::sessions, verdict::skip,
                      "needs resources.subscribe with update_resource, or tools.listChanged with add_tool");
  auto& primary = ctx.primary();
  auto uri = ctx.unique_uri("shared");
  try {
    if (subscribe)
      if (auto err = ctx.mutate(primary, m.add_resource, {{"uri", uri}, {"name", "shared"}, {"text", "v1"}}))
        return ctx.record(id, title, spec::sessions, verdict::skip, "could not add a resource: " + *err);
    auto survivor = ctx.open_session();
    auto polite = ctx.open_session(true);
    auto vanished = ctx.open_session(false);
    if (subscribe)
      for (probe* p : {survivor.get(), polite.get(), vanished.get()})
        p->request("resources/subscribe", {{"uri", uri}}, ctx.opts.timeout);
    for (auto* p : {&polite, &vanished}) {
      ctx.collect(**p);
      p->reset(); // closes: DELETE, or just the sockets
    }
    auto from_survivor = survivor->mark(), from_primary = primary.mark();
    std::string problems;
    if (subscribe) {
      ctx.mutate(primary, m.update_resource, {{"uri", uri}, {"text", "after the others left"}});
      auto updated = [&uri](const json& n) {
        return member_or(n, "method", "") == "notifications/resources/updated" && n.contains("params")
               && n["params"].is_object() && member_or(n["params"], "uri", "") == uri;
      };
      if (!survivor->wait_notifications(updated, 1, from_survivor, ctx.opts.timeout))
        problems += "the subscribed session got no notifications/resources/updated; ";
    }
    if (tools) {
      auto name = ctx.unique("after-leave");
      ctx.mutate(primary, m.add_tool, {{"name", name}});
      for (auto [p, from, who] : {std::tuple{&primary, from_primary, "the primary"},
                                  std::tuple{survivor.get(), from_survivor, "the survivor"}})
        if (!p->wait_notifications(method_is("notifications/tools/list_changed"), 1, from, ctx.opts.timeout))
          problems += std::string(who) + " got no notifications/tools/list_changed; ";
      ctx.mutate(primary, m.remove_tool, {{"name", name}});
    }
    ctx.collect(*survivor);
    ctx.record(id, title, spec::sessions, problems.empty() ? verdict::pass : verdict::fail, problems);
  } catch (const std::exception& e) {
    ctx.record(id, title, spec::sessions, verdict::fail, e.what());
  }
  if (subscribe)
    ctx.mutate(primary, m.remove_resource, {{"uri", uri}});
}

// The primary's GET stream is cut and kept down while changes happen; on
// reconnecting with Last-Event-ID each missed notification must arrive once.
void check_resumption(context& ctx) {
  const std::string id = "streams.resumption-replays-missed";
  const std::string title =
    "after a dropped GET stream, resuming with Last-Event-ID replays what was missed, once";
  if (!ctx.is_http())
    return ctx.record(id, title, spec::resumability, verdict::skip,
                      "stdio has no streams to resume: HTTP only");
  auto& m = ctx.opts.mutations;
  // The first kind whose changes the server announces.
  std::string kind, add, remove;
  if (ctx.declares("tools", "listChanged") && !m.add_tool.empty())
    kind = "tools", add = m.add_tool, remove = m.remove_tool;
  else if (ctx.declares("prompts", "listChanged") && !m.add_prompt.empty())
    kind = "prompts", add = m.add_prompt, remove = m.remove_prompt;
  if (kind.empty())
    return ctx.record(id, title, spec::resumability, verdict::skip,
                      "needs tools or prompts listChanged with an add mutation");
  auto& primary = ctx.primary();
  auto* http = primary.stream();
  const std::string method = "notifications/" + kind + "/list_changed";
  const int missed = 3;
  std::vector<std::string> names;
  try {
    int opens = http->get_stream_opens();
    int resumed = http->resumptions();
    auto from = primary.mark();
    http->pause_get_stream();
    for (int i = 0; i < missed; ++i) {
      names.push_back(ctx.unique("missed"));
      if (auto err = ctx.mutate(primary, add, {{"name", names.back()}}))
        return ctx.record(id, title, spec::resumability, verdict::skip, "could not drive a change: " + *err);
    }
    http->resume_get_stream();
    // The stream is back (or the server refused it): then one live change
    // after the replay, so that everything replayed is in when it arrives.
    http->wait_get_stream(ctx.opts.timeout, opens + 1);
    names.push_back(ctx.unique("live"));
    ctx.mutate(primary, add, {{"name", names.back()}});
    primary.wait_notifications(method_is(method), missed + 1, from, ctx.opts.timeout);
    auto got = primary.count_notifications(method_is(method), from);
    bool named = true; // does the server say which item changed? then check each
    std::string per_name;
    for (auto& n : names) {
      auto k = primary.count_notifications(
        [&](const json& x) { return method_is(method)(x) && mentions(x, n); }, from);
      named = named && k > 0;
      per_name += n + "=" + std::to_string(k) + " ";
    }
    bool resumed_with_id = http->resumptions() > resumed;
    std::string detail =
      std::to_string(got) + " of " + std::to_string(missed + 1) + " " + method
      + " (3 while the stream was down, 1 after); "
      + (resumed_with_id ? "resumed with Last-Event-ID" : "no Last-Event-ID to resume from (no SSE ids)");
    if (named)
      detail += "; per item: " + per_name;
    verdict v = got == static_cast<std::size_t>(missed + 1) ? verdict::pass : verdict::fail;
    if (v == verdict::pass && named)
      for (auto& n : names)
        if (primary.count_notifications([&](const json& x) { return method_is(method)(x) && mentions(x, n); },
                                        from)
            != 1)
          v = verdict::fail;
    ctx.record(id, title, spec::resumability, v, detail);
  } catch (const std::exception& e) {
    ctx.record(id, title, spec::resumability, verdict::fail, e.what());
  }
  for (auto& n : names)
    ctx.mutate(primary, remove, {{"name", n}});
}

} // namespace cafmcp::check

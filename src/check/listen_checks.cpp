// MCP 2026-07-28: stateless requests and `subscriptions/listen`. One probe
// (stdio: one process; HTTP: one POST per request, each listen its own SSE
// stream) carries several listeners at once; what reaches each is told
// apart by the subscription id stamped into every notification's _meta.
#include <algorithm>

#include "check/checks.hpp"
#include "check/shape.hpp"

namespace cafmcp::check {
namespace {

// Wire names of the revision, restated here: the checker judges servers by
// the specification, not by cafmcp's own definitions.
constexpr const char* version_2026 = "2026-07-28";
constexpr const char* subscription_id_key = "io.modelcontextprotocol/subscriptionId";
constexpr const char* acknowledged = "notifications/subscriptions/acknowledged";

json stateless_meta() {
  return {{"io.modelcontextprotocol/protocolVersion", version_2026},
          {"io.modelcontextprotocol/clientCapabilities", json::object()},
          {"io.modelcontextprotocol/clientInfo", {{"name", "cafmcp-check"}, {"version", "0.1.0"}}}};
}

json subscription_of(const json& m) {
  if (!m.contains("params") || !m["params"].is_object())
    return nullptr;
  auto& p = m["params"];
  if (!p.contains("_meta") || !p["_meta"].is_object())
    return nullptr;
  return p["_meta"].value(subscription_id_key, json());
}

/// A notification `method` stamped with subscription `id` (and, when given,
/// for `uri`).
message_filter for_listener(const json& id, std::string method, std::string uri = {}) {
  return [id, method, uri](const json& m) {
    if (member_or(m, "method", "") != method || subscription_of(m) != id)
      return false;
    return uri.empty() || (m["params"].is_object() && member_or(m["params"], "uri", "") == uri);
  };
}

struct listener {
  json id;
  std::size_t from; // inbound index when it was opened
};

} // namespace

void check_stateless(context& ctx) {
  const std::string discover_id = "v2026.discover",
                    discover_title = "server/discover names 2026-07-28 among the versions it serves";
  const std::string
    ack_id = "v2026.listen.acknowledged",
    ack_title = "subscriptions/listen is acknowledged first, stamped with its id, listing what is honoured";
  const std::string
    only_id = "v2026.listen.updated-only-its-uris",
    only_title =
      "notifications/resources/updated reaches only the listener that named the uri, stamped with its id";
  const std::string opt_id = "v2026.listen.list-changed-opt-in",
                    opt_title = "tools list_changed reaches only the listener that opted in";
  const std::string stamp_id = "v2026.listen.every-notification-stamped",
                    stamp_title = "every notification on a listen stream carries its subscription id";
  const std::string cancel_id = "v2026.listen.cancel-stops",
                    cancel_title =
                      "once a listen is cancelled (stdio) or its stream closed (HTTP), nothing more for it";
  const std::string nf_id = "v2026.resource-not-found",
                    nf_title = "reading an unknown resource is -32602 in 2026-07-28";
  const auto& m = ctx.opts.mutations;
  std::vector<std::pair<std::string, std::string>> listen_checks = {{ack_id, ack_title},
                                                                    {only_id, only_title},
                                                                    {opt_id, opt_title},
                                                                    {stamp_id, stamp_title},
                                                                    {cancel_id, cancel_title}};
  auto skip_listen = [&](const std::string& why) {
    for (auto& [id, title] : listen_checks)
      ctx.record(id, title, spec::listen, verdict::skip, why);
  };

  std::unique_ptr<probe> p;
  try {
    p = ctx.open_stateless_probe();
    p->go_stateless(version_2026, stateless_meta());
    auto res = p->request("server/discover", json::object(), ctx.opts.timeout);
    auto versions =
      res.contains("result") ? res["result"].value("supportedVersions", json::array()) : json::array();
    bool named = versions.is_array()
                 && std::find(versions.begin(), versions.end(), json(version_2026)) != versions.end();
    ctx.record(discover_id, discover_title, spec::discover, named ? verdict::pass : verdict::fail,
               named ? "supportedVersions " + versions.dump() : "answer: " + res.dump());
    if (!named) {
      ctx.record(nf_id, nf_title, spec::stateless_errors, verdict::skip,
                 "the server does not serve 2026-07-28");
      return skip_listen("the server does not serve 2026-07-28");
    }
    auto nf = p->request("resources/read", {{"uri", ctx.unique_uri("never-added")}}, ctx.opts.timeout);
    auto code = nf.contains("error") ? member_or(nf["error"], "code", 0) : 0;
    ctx.record(nf_id, nf_title, spec::stateless_errors, code == -32602 ? verdict::pass : verdict::fail,
               nf.contains("error") ? "answered " + std::to_string(code) : "answered " + nf.dump());
  } catch (const std::exception& e) {
    ctx.record(discover_id, discover_title, spec::discover, verdict::fail, e.what());
    return skip_listen(std::string("no stateless round trip: ") + e.what());
  }

  auto watched = ctx.unique_uri("listened"), other = ctx.unique_uri("listened-other");
  for (auto& uri : {watched, other})
    if (auto err = ctx.mutate(*p, m.add_resource, {{"uri", uri}, {"name", "listened"}, {"text", "v1"}}))
      return skip_listen("could not add a resource: " + *err);
  if (m.update_resource.empty() || m.add_tool.empty())
    return skip_listen("needs the update_resource and add_tool mutations");

  try {
    auto open = [&](json filter) {
      listener l{nullptr, p->mark()};
      l.id = p->start_request("subscriptions/listen", {{"notifications", std::move(filter)}});
      return l;
    };
    auto on_uri = open({{"resourceSubscriptions", {watched}}});
    auto on_other = open({{"resourceSubscriptions", {other}}});
    auto on_tools = open({{"toolsListChanged", true}});

    // Acknowledged first, each with its own id and what it asked for.
    bool acked = true;
    std::string ack_detail;
    for (auto* l : {&on_uri, &on_other, &on_tools}) {
      if (!p->wait_notifications(for_listener(l->id, acknowledged), 1, l->from, ctx.opts.timeout)) {
        acked = false;
        ack_detail += "no acknowledgement for listen " + l->id.dump() + "; ";
        continue;
      }
      auto mine = p->notifications(l->from);
      auto first =
        std::find_if(mine.begin(), mine.end(), [&](const json& n) { return subscription_of(n) == l->id; });
      if (first == mine.end() || member_or(*first, "method", "") != acknowledged) {
        acked = false;
        ack_detail +=
          "listen " + l->id.dump() + " got " + (first == mine.end() ? "nothing" : first->dump()) + " first; ";
      }
    }
    auto ack = p->notifications(on_uri.from);
    auto a = std::find_if(ack.begin(), ack.end(), for_listener(on_uri.id, acknowledged));
    bool lists_uri =
      a != ack.end()
      && (*a)["params"].value("notifications", json::object()).value("resourceSubscriptions", json::array())
           == json::array({watched});
    if (acked && !lists_uri) {
      acked = false;
      ack_detail += "the acknowledgement does not list the uri asked for";
    }
    ctx.record(ack_id, ack_title, spec::listen, acked ? verdict::pass : verdict::fail,
               acked ? "3 listeners, each acknowledged first" : ack_detail);

    // resources/updated: only the listener on that uri.
    auto before = p->mark();
    if (auto err = ctx.mutate(*p, m.update_resource, {{"uri", watched}, {"text", "v2"}}))
      throw probe_error("update_resource failed: " + *err);
    bool got = p->wait_notifications(for_listener(on_uri.id, "notifications/resources/updated", watched), 1,
                                     before, ctx.opts.timeout);
    bool leaked = p->wait_notifications(
      [&](const json& n) {
        return member_or(n, "method", "") == "notifications/resources/updated"
               && subscription_of(n) != on_uri.id;
      },
      1, before, ctx.opts.quiet);
    ctx.record(only_id, only_title, spec::listen, got && !leaked ? verdict::pass : verdict::fail,
               !got     ? "the listener on the uri heard nothing"
               : leaked ? "another listener got it too"
                        : "");

    // tools list_changed: only the listener that opted in.
    before = p->mark();
    if (auto err = ctx.mutate(*p, m.add_tool, {{"name", ctx.unique("listened-tool")}}))
      throw probe_error("add_tool failed: " + *err);
    bool tools_got = p->wait_notifications(for_listener(on_tools.id, "notifications/tools/list_changed"), 1,
                                           before, ctx.opts.timeout);
    bool tools_leaked = p->wait_notifications(
      [&](const json& n) {
        return member_or(n, "method", "") == "notifications/tools/list_changed"
               && subscription_of(n) != on_tools.id;
      },
      1, before, ctx.opts.quiet);
    ctx.record(opt_id, opt_title, spec::listen, tools_got && !tools_leaked ? verdict::pass : verdict::fail,
               !tools_got     ? "the opted-in listener heard nothing"
               : tools_leaked ? "a listener that did not opt in got it"
                              : "");

    // Cancel the uri listener: a further update reaches nobody.
    // Over HTTP a listen ends with its stream; over stdio by cancelling it.
    if (p->http())
      p->http()->end_request_stream(on_uri.id);
    else
      p->notify("notifications/cancelled", {{"requestId", on_uri.id}, {"reason", "cafmcp-check"}});
    before = p->mark();
    if (auto err = ctx.mutate(*p, m.update_resource, {{"uri", watched}, {"text", "v3"}}))
      throw probe_error("update_resource failed: " + *err);
    bool after_cancel = p->wait_notifications(for_listener(on_uri.id, "notifications/resources/updated"), 1,
                                              before, ctx.opts.quiet);
    ctx.record(cancel_id, cancel_title, spec::listen, after_cancel ? verdict::fail : verdict::pass,
               after_cancel ? "an update still arrived for the cancelled listener" : "");

    // Every notification that came on a listen stream carried an id.
    std::size_t unstamped = 0, total = 0;
    for (const auto& n : p->notifications(on_uri.from)) {
      ++total;
      unstamped += subscription_of(n).is_null() ? 1 : 0;
    }
    ctx.record(stamp_id, stamp_title, spec::listen,
               unstamped == 0 && total > 0 ? verdict::pass : verdict::fail,
               std::to_string(total - unstamped) + " of " + std::to_string(total) + " notifications stamped");
  } catch (const std::exception& e) {
    for (auto& [id, title] : listen_checks)
      if (!ctx.recorded(id))
        ctx.record(id, title, spec::listen, verdict::fail, e.what());
  }
  p->close();
}

} // namespace cafmcp::check

// resources/subscribe, notifications/resources/updated, unsubscribe.
#include "check/checks.hpp"
#include "check/shape.hpp"

namespace cafmcp::check {
namespace {

message_filter updated_for(const std::string& uri) {
  return [uri](const json& m) {
    return member_or(m, "method", "") == "notifications/resources/updated" && m.contains("params")
           && m["params"].is_object() && member_or(m["params"], "uri", "") == uri;
  };
}

} // namespace

void check_subscriptions(context& ctx) {
  auto& m = ctx.opts.mutations;
  const char* sec = spec::subscriptions;
  const std::string unknown_id = "resources.subscribe.unknown-uri",
                    unknown_title = "subscribing to an unknown uri is refused";
  const std::string delivered_id = "resources.updated.delivered",
                    delivered_title =
                      "notifications/resources/updated reaches the subscriber, carrying the uri";
  const std::string only_id = "resources.updated.only-subscribers",
                    only_title = ctx.is_http()
                                   ? "notifications/resources/updated goes only to subscribed sessions"
                                   : "notifications/resources/updated only for subscribed uris";
  const std::string unsub_id = "resources.unsubscribe.stops",
                    unsub_title = "after unsubscribe no more notifications/resources/updated";
  if (!ctx.declares("resources", "subscribe")) {
    for (auto& [id, title] : {std::pair{unknown_id, unknown_title},
                              {delivered_id, delivered_title},
                              {only_id, only_title},
                              {unsub_id, unsub_title}})
      ctx.record(id, title, sec, verdict::skip, "resources.subscribe not declared");
    return;
  }
  auto& primary = ctx.primary();
  try {
    auto res =
      primary.request("resources/subscribe", {{"uri", ctx.unique_uri("never-added")}}, ctx.opts.timeout);
    if (res.contains("error"))
      ctx.record(unknown_id, unknown_title, spec::resource_errors, verdict::pass,
                 "refused with " + res["error"].value("code", json()).dump());
    else
      ctx.record(unknown_id, unknown_title, spec::resource_errors, verdict::fail, "accepted: " + res.dump());
  } catch (const std::exception& e) {
    ctx.record(unknown_id, unknown_title, spec::resource_errors, verdict::fail, e.what());
  }

  auto uri = ctx.unique_uri("watched");
  auto other_uri = ctx.unique_uri("unwatched");
  auto skip_rest = [&](const std::string& why) {
    for (auto& [id, title] :
         {std::pair{delivered_id, delivered_title}, {only_id, only_title}, {unsub_id, unsub_title}})
      ctx.record(id, title, sec, verdict::skip, why);
  };
  if (auto err = ctx.mutate(primary, m.add_resource, {{"uri", uri}, {"name", "watched"}, {"text", "v1"}}))
    return skip_rest("could not add a resource: " + *err);
  if (m.update_resource.empty())
    return skip_rest("no update_resource mutation configured");
  try {
    // HTTP: another session subscribes and the primary (not subscribed) must
    // hear nothing; stdio has one session, so an unsubscribed uri stands in.
    std::unique_ptr<probe> other = ctx.is_http() ? ctx.open_session() : nullptr;
    probe& subscriber = other ? *other : primary;
    auto sub = subscriber.request("resources/subscribe", {{"uri", uri}}, ctx.opts.timeout);
    if (sub.contains("error")) {
      if (other)
        ctx.collect(*other);
      return skip_rest("subscribe refused: " + sub["error"].dump());
    }
    if (!other)
      ctx.mutate(primary, m.add_resource, {{"uri", other_uri}, {"name", "unwatched"}, {"text", "v1"}});
    auto from_sub = subscriber.mark(), from_primary = primary.mark();
    if (auto err = ctx.mutate(primary, m.update_resource, {{"uri", uri}, {"text", "v2"}})) {
      skip_rest("could not update the resource: " + *err);
    } else {
      if (subscriber.wait_notifications(updated_for(uri), 1, from_sub, ctx.opts.timeout)) {
        ctx.record(delivered_id, delivered_title, sec, verdict::pass);
      } else {
        auto any = subscriber.count_notifications(method_is("notifications/resources/updated"), from_sub);
        ctx.record(delivered_id, delivered_title, sec, verdict::fail,
                   any ? "notifications/resources/updated arrived without params.uri = " + uri
                       : "nothing within " + std::to_string(ctx.opts.timeout.count()) + " ms");
      }
      bool quiet;
      if (other) {
        quiet = ctx.none_arrives(primary, method_is("notifications/resources/updated"), from_primary);
      } else {
        auto from = primary.mark();
        ctx.mutate(primary, m.update_resource, {{"uri", other_uri}, {"text", "v2"}});
        quiet = ctx.none_arrives(primary, updated_for(other_uri), from);
      }
      ctx.record(
        only_id, only_title, sec, quiet ? verdict::pass : verdict::fail,
        quiet ? "" : (other ? "an unsubscribed session received it" : "sent for a uri nobody subscribed to"));

      auto unsub = subscriber.request("resources/unsubscribe", {{"uri", uri}}, ctx.opts.timeout);
      if (unsub.contains("error")) {
        ctx.record(unsub_id, unsub_title, sec, verdict::fail,
                   "unsubscribe refused: " + unsub["error"].dump());
      } else {
        auto from = subscriber.mark();
        ctx.mutate(primary, m.update_resource, {{"uri", uri}, {"text", "v3"}});
        bool stopped = ctx.none_arrives(subscriber, updated_for(uri), from);
        ctx.record(unsub_id, unsub_title, sec, stopped ? verdict::pass : verdict::fail,
                   stopped ? "" : "still notified after unsubscribe");
      }
    }
    if (other)
      ctx.collect(*other);
  } catch (const std::exception& e) {
    ctx.record(delivered_id, delivered_title, sec, verdict::fail, e.what());
  }
  ctx.mutate(primary, m.remove_resource, {{"uri", uri}});
  if (!ctx.is_http())
    ctx.mutate(primary, m.remove_resource, {{"uri", other_uri}});
}

} // namespace cafmcp::check

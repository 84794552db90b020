// Judgements over every message every session received.
#include "check/checks.hpp"
#include "check/shape.hpp"

namespace cafmcp::check {
namespace {

bool looks_like_notification(const json& m) {
  if (m.is_object() && m.contains("cafmcp-check/unparsable"))
    return true; // a line that was no JSON at all is judged here too
  return m.is_object() && m.contains("method") && m["method"].is_string()
         && m["method"].get<std::string>().rfind("notifications/", 0) == 0;
}

} // namespace

void check_notification_shape(context& ctx) {
  const std::string id = "notifications.shape";
  const std::string title = "notifications have no id and params that are an object or absent (never null)";
  std::size_t n = 0, bad = 0;
  std::string first;
  for (auto& m : ctx.seen) {
    if (!looks_like_notification(m))
      continue;
    ++n;
    if (auto problem = notification_shape_problem(m)) {
      if (!bad++)
        first = *problem + ": " + m.dump().substr(0, 300);
    }
  }
  if (n == 0)
    return ctx.record(id, title, spec::notifications, verdict::skip, "the server sent no notifications");
  if (bad)
    return ctx.record(id, title, spec::notifications, verdict::fail,
                      std::to_string(bad) + " of " + std::to_string(n) + " malformed; first: " + first);
  ctx.record(id, title, spec::notifications, verdict::pass,
             std::to_string(n) + " notifications, all well-formed");
}

void check_operation_metadata(context& ctx) {
  const std::string id = "cafmcp.operation-metadata";
  const std::string title = "list_changed says what changed (cafmcp operation metadata)";
  std::size_t n = 0, with = 0;
  for (auto& m : ctx.seen) {
    if (!m.is_object() || !m.contains("method") || !m["method"].is_string())
      continue;
    auto method = m["method"].get<std::string>();
    if (method.size() < 13 || method.compare(method.size() - 13, 13, "/list_changed") != 0)
      continue;
    ++n;
    with += has_operation_metadata(m) ? 1 : 0;
  }
  if (n == 0)
    return ctx.record(id, title, spec::cafmcp_metadata, verdict::skip,
                      "no list_changed notification was received");
  if (with == n)
    return ctx.record(id, title, spec::cafmcp_metadata, verdict::pass,
                      std::to_string(n) + " list_changed notifications, all with operation metadata");
  ctx.record(id, title, spec::cafmcp_metadata, verdict::info,
             std::to_string(with) + " of " + std::to_string(n)
               + " list_changed notifications carry operation metadata (clients must reload the list)");
}

// The checks promise not to throw; a server's reply of a shape no check
// foresaw must still end as a verdict on that server, not end the run.
void guarded(context& ctx, const char* group, void (*run)(context&)) {
  try {
    run(ctx);
  } catch (const std::exception& e) {
    ctx.record(std::string(group) + ".judged",
               std::string("the ") + group + " checks could judge the server's replies", spec::notifications,
               verdict::fail, std::string("a reply of an unforeseen shape: ") + e.what());
  }
}

report run_checks(const options& opts) {
  report out;
  if (!opts.url.empty()) {
    context ctx(opts, out);
    guarded(ctx, "authorization", check_authorization);
  }
  if (opts.protocol == "2026-07-28") {
    context ctx(opts, out);
    guarded(ctx, "stateless", check_stateless);
    return out;
  }
  {
    context ctx(opts, out);
    if (!connect_primary(ctx))
      return out;
    guarded(ctx, "lifecycle", check_nothing_before_initialized);
    guarded(ctx, "list_changed", check_list_changed);
    guarded(ctx, "subscriptions", check_subscriptions);
    guarded(ctx, "sessions", check_session_isolation);
    guarded(ctx, "streams", check_resumption);
    guarded(ctx, "tasks", check_tasks);
    ctx.collect(ctx.primary());
    guarded(ctx, "notifications", check_notification_shape);
    guarded(ctx, "cafmcp", check_operation_metadata);
    ctx.primary().close();
  }
  return out;
}

} // namespace cafmcp::check

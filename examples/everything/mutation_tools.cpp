// Tools that change the server while it runs: what every notification test
// (ours, cafmcp-check, the load generator) drives.
#include <chrono>
#include <map>
#include <mutex>
#include <thread>

#include "fixtures.hpp"

namespace everything {
namespace {

using cafmcp::json;
using cafmcp::request_context;
using cafmcp::tool_result;

// What the mutation tools added, so update_resource can keep the fields it
// is not asked to change. Handlers run on many workers: hence the lock.
struct added_resources {
  std::mutex mtx;
  std::map<std::string, cafmcp::resource> by_uri;
};

json schema(json props, json required) {
  return {{"type", "object"}, {"properties", std::move(props)}, {"required", std::move(required)}};
}

const json str = {{"type", "string"}};

tool_result outcome(std::future<bool> done, const std::string& ok, const std::string& failed) {
  return done.get() ? tool_result::text(ok) : tool_result::error(failed);
}

} // namespace

void install_mutation_tools(cafmcp::server& srv) {
  auto added = std::make_shared<added_resources>();
  cafmcp::server* s = &srv;

  srv.add_tool(make_tool("add_resource", "Adds a text resource (list_changed: added)",
                         schema({{"uri", str}, {"name", str}, {"text", str}}, {"uri", "name", "text"}),
                         [s, added](const json& a, request_context&) {
                           cafmcp::resource r;
                           r.uri = a["uri"];
                           r.name = a["name"];
                           r.mime_type = "text/plain";
                           r.contents.push_back(
                             cafmcp::resource_contents::make_text(r.uri, a["text"], "text/plain"));
                           {
                             std::lock_guard<std::mutex> g(added->mtx);
                             added->by_uri[r.uri] = r;
                           }
                           return outcome(s->add_resource(r), "added " + r.uri, "could not add " + r.uri);
                         }));

  // Asynchronous (tool::async_handler): the mutation's callback answers the
  // call, so no thread waits on the server actor; one update crosses no
  // thread after the session's actor took the line (the load's stdio row).
  cafmcp::tool update;
  update.name = "update_resource";
  update.description =
    "Changes a resource: text -> resources/updated to subscribers; name/description -> list_changed updated";
  update.input_schema = schema({{"uri", str}, {"text", str}, {"name", str}, {"description", str}}, {"uri"});
  update.async_handler = [s, added](const json& a, request_context&, cafmcp::tool_reply reply) {
    std::string uri = a["uri"];
    auto answer = [reply, uri](const std::string& failed) {
      return [reply, ok = "updated " + uri, failed](bool changed) {
        reply(changed ? tool_result::text(ok) : tool_result::error(failed));
      };
    };
    bool descriptor = a.contains("name") || a.contains("description");
    // Content only: the registry has the resource (on every node of a
    // cluster, where data-only resources replicate), and only its contents change.
    if (!descriptor && a.contains("text")) {
      std::vector<cafmcp::resource_contents> contents{
        cafmcp::resource_contents::make_text(uri, a["text"], "text/plain")};
      {
        std::lock_guard<std::mutex> g(added->mtx);
        if (auto it = added->by_uri.find(uri); it != added->by_uri.end())
          it->second.contents = contents;
      }
      s->set_resource_contents(uri, std::move(contents),
                               answer("unknown resource (add it with add_resource first): " + uri));
      return;
    }
    cafmcp::resource r;
    {
      std::lock_guard<std::mutex> g(added->mtx);
      auto it = added->by_uri.find(uri);
      if (it == added->by_uri.end())
        return reply(tool_result::error("unknown resource (add it with add_resource first): " + uri));
      if (a.contains("name"))
        it->second.name = a["name"];
      if (a.contains("description"))
        it->second.description = a["description"].get<std::string>();
      if (a.contains("text"))
        it->second.contents = {cafmcp::resource_contents::make_text(uri, a["text"], "text/plain")};
      r = it->second;
    }
    s->add_resource(r, answer("could not update " + uri));
  };
  srv.add_tool(std::move(update));

  srv.add_tool(make_tool("remove_resource", "Removes a resource (list_changed: removed)",
                         schema({{"uri", str}}, {"uri"}), [s, added](const json& a, request_context&) {
                           std::string uri = a["uri"];
                           {
                             std::lock_guard<std::mutex> g(added->mtx);
                             added->by_uri.erase(uri);
                           }
                           return outcome(s->remove_resource(uri), "removed " + uri,
                                          "no such resource: " + uri);
                         }));

  srv.add_tool(make_tool("add_tool", "Adds a tool that answers with its own name",
                         schema({{"name", str}}, {"name"}), [s](const json& a, request_context&) {
                           std::string name = a["name"];
                           cafmcp::tool t;
                           t.name = name;
                           t.description = "Added at run time by add_tool";
                           t.handler = [name](const json&, request_context&) {
                             return tool_result::text("I am " + name);
                           };
                           return outcome(s->add_tool(t), "added tool " + name, "could not add tool " + name);
                         }));

  srv.add_tool(make_tool("remove_tool", "Removes a tool (list_changed: removed)",
                         schema({{"name", str}}, {"name"}), [s](const json& a, request_context&) {
                           std::string name = a["name"];
                           return outcome(s->remove_tool(name), "removed tool " + name,
                                          "no such tool: " + name);
                         }));

  srv.add_tool(make_tool(
    "add_prompt", "Adds a prompt", schema({{"name", str}}, {"name"}), [s](const json& a, request_context&) {
      std::string name = a["name"];
      cafmcp::prompt p;
      p.name = name;
      p.description = "Added at run time by add_prompt";
      p.handler = [name](const auto&, request_context&) {
        cafmcp::prompt_result r;
        r.messages.push_back({"user", cafmcp::content::text("Prompt " + name)});
        return r;
      };
      return outcome(s->add_prompt(p), "added prompt " + name, "could not add prompt " + name);
    }));

  srv.add_tool(make_tool("remove_prompt", "Removes a prompt (list_changed: removed)",
                         schema({{"name", str}}, {"name"}), [s](const json& a, request_context&) {
                           std::string name = a["name"];
                           return outcome(s->remove_prompt(name), "removed prompt " + name,
                                          "no such prompt: " + name);
                         }));
}

void install_diagnostics(cafmcp::server& srv) {
  cafmcp::server* s = &srv;
  srv.add_tool(make_tool("server_stats", "Sessions and subscriptions the change notifier holds",
                         {{"type", "object"}, {"properties", json::object()}},
                         [s](const json&, request_context&) {
                           auto st = s->stats();
                           return tool_result::structured({{"sessions", st.sessions},
                                                           {"subscriptions", st.subscriptions},
                                                           {"subscribedUris", st.subscribed_uris},
                                                           {"broadcasts", st.broadcasts},
                                                           {"deliveries", st.deliveries},
                                                           {"listeners", st.listeners},
                                                           {"logOutbox", st.log_outbox},
                                                           {"logOverflows", st.log_overflows}});
                         }));
  // A call still running when the server is told to stop: it logs first (so
  // over HTTP its answer is an SSE stream), then works for `ms`, stopping
  // early only when cancelled (the session ended).
  srv.add_tool(make_tool("slow_call",
                         "Logs that it started, then runs for `ms` milliseconds (for shutdown tests)",
                         schema({{"ms", {{"type", "integer"}, {"minimum", 0}, {"maximum", 600000}}}}, {"ms"}),
                         [](const json& a, request_context& ctx) {
                           auto ms = a["ms"].get<std::int64_t>();
                           ctx.log(cafmcp::log_level::info, "slow_call started");
                           auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
                           while (!ctx.cancelled() && std::chrono::steady_clock::now() < until)
                             std::this_thread::sleep_for(std::chrono::milliseconds(5));
                           return tool_result::text("slow_call finished after " + std::to_string(ms) + " ms");
                         }));
}

} // namespace everything

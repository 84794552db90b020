#include "cafmcp/client.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <set>

#include "cafmcp/json_rpc.hpp"
#include "cafmcp/uri_template.hpp"

#include "client/cache_store.hpp"
#include "client/descriptor_list.hpp"
#include "client/mailbox.hpp"
#include "client/reload_scheduler.hpp"
#include "client/rpc_channel.hpp"
#include "foundation/json_member.hpp"

namespace cafmcp {

using namespace client_core;

client_error::client_error(rpc_failure f)
  : std::runtime_error(f.message + " (" + std::to_string(f.code) + ")"), failure(std::move(f)) {}

namespace {

template <class T>
std::future<T> failed(rpc_failure f) {
  std::promise<T> p;
  p.set_exception(std::make_exception_ptr(client_error(std::move(f))));
  return p.get_future();
}

template <class T>
void fail(std::promise<T>& p, rpc_failure f) {
  p.set_exception(std::make_exception_ptr(client_error(std::move(f))));
}

rpc_failure closed_failure(const std::string& why) {
  return {client_error_code::connection_closed, "connection closed: " + why, nullptr};
}

} // namespace

// The client's state lives on `loop` (its dispatcher thread); user code
// (events, server->client request handlers, progress) runs on `callbacks`,
// so a handler may call the client and wait without blocking the loop.
// The lists, subscriptions and capabilities are also read from user threads:
// `view_mtx` guards them (written only on the loop).
struct client::impl : std::enable_shared_from_this<client::impl> {
  using list_done = std::function<void(std::optional<std::vector<json>>, std::optional<rpc_failure>)>;

  client_options opts;
  std::unique_ptr<client_transport> transport;
  client_core::cache_store cache;

  // -- owned by the loop ----------------------------------------------------
  rpc_channel rpc;
  reload_scheduler reloads;
  std::map<std::string, std::function<void(const json&)>> progress; // token -> handler
  bool templates_supported = true;
  bool closed = false;

  // -- read from anywhere -----------------------------------------------------
  mutable std::mutex view_mtx;
  std::map<list_kind, descriptor_list> lists;
  std::set<std::string> subscribed;
  json capabilities = json::object();
  json info = json::object();
  std::string version;
  std::atomic<std::size_t> reload_count{0};
  std::atomic<bool> close_requested{false};

  std::mutex handlers_mtx;
  std::map<client_event_kind, std::map<std::uint64_t, client_event_handler>> handlers;
  std::uint64_t next_handler = 0;
  // Held while event handlers run: removing a handler from another thread
  // waits on it, so once event_subscription::reset() returns the handler
  // never runs again (its captures may be gone).
  std::mutex dispatch_mtx;

  // Declared last: the threads stop (in reverse order) before the state goes.
  client_core::mailbox callbacks;
  client_core::mailbox loop;

  impl(std::unique_ptr<client_transport> t, client_options o)
    : opts(std::move(o)), transport(std::move(t)), rpc(opts.max_pending_requests),
      reloads({opts.initial_backoff, opts.max_backoff, opts.reload_attempts}),
      loop([this](auto now) { return tick(now); }) {
    for (auto k : all_list_kinds)
      lists.emplace(k, descriptor_list(k));
    cache.set_listener([this](const std::string& kind, const std::string& key, bool stored) {
      emit(client_event_kind::cache_changed, key, {{"kind", kind}, {"stored", stored}});
    });
  }

  // -- events -----------------------------------------------------------------
  void emit(client_event_kind kind, std::string key, json detail = json::object()) {
    callbacks.post([self = shared_from_this(), ev = client_event{kind, std::move(key), std::move(detail)}] {
      std::lock_guard<std::mutex> running(self->dispatch_mtx);
      std::vector<client_event_handler> hs;
      {
        std::lock_guard<std::mutex> g(self->handlers_mtx);
        for (auto& [id, h] : self->handlers[ev.kind])
          hs.push_back(h);
      }
      for (auto& h : hs)
        h(ev);
    });
  }

  // -- the loop ---------------------------------------------------------------
  std::optional<steady::time_point> tick(steady::time_point now) {
    auto next = rpc.expire(now);
    for (auto k : reloads.due(now))
      start_reload(k);
    auto retry = reloads.next_retry();
    if (retry && (!next || *retry < *next))
      next = retry;
    return next;
  }

  /// Sends a request; `done` runs on the loop.
  /// `timeout`: this request's own, instead of the client's request_timeout.
  void send_request(const std::string& method, json params, completion done,
                    std::function<void(const json&)> on_progress = nullptr,
                    std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    if (closed) {
      done(nullptr, closed_failure("client closed"));
      return;
    }
    std::int64_t id = 0;
    std::string token;
    if (on_progress) {
      // The token is chosen before the id is known: a counter of our own.
      static std::atomic<std::uint64_t> tokens{0};
      token = "cafmcp-progress-" + std::to_string(++tokens);
      params["_meta"]["progressToken"] = token;
      progress[token] = std::move(on_progress);
      done = [this, token, done = std::move(done)](json r, std::optional<rpc_failure> f) {
        progress.erase(token);
        done(std::move(r), std::move(f));
      };
    }
    // A callback that cannot read its result (a shape no reader here
    // foresaw) runs again as a failure: its caller gets a client_error
    // rather than a future that never ends (the request is no longer pending).
    done = [done = std::move(done)](json r, std::optional<rpc_failure> f) {
      std::string why;
      try {
        done(std::move(r), std::move(f));
        return;
      } catch (const std::exception& e) {
        why = e.what();
      }
      try {
        done(nullptr, rpc_failure{-32603, "unreadable result: " + why, nullptr});
      } catch (const std::exception&) {
      }
    };
    auto text = rpc.start(method, std::move(params), steady::now() + timeout.value_or(opts.request_timeout),
                          std::move(done), &id);
    if (text && !transport->send(std::move(*text)))
      rpc.fail_all(closed_failure("transport refused to send"));
  }

  /// A whole list, following cursors.
  void fetch_list(list_kind k, list_done done, std::vector<json> acc = {}, std::string cursor = {},
                  std::size_t pages = 0) {
    json params = json::object();
    if (!cursor.empty())
      params["cursor"] = cursor;
    send_request(std::string(list_method(k)), params,
                 [this, k, done = std::move(done), acc = std::move(acc),
                  pages](json r, std::optional<rpc_failure> f) mutable {
                   if (f) {
                     done(std::nullopt, std::move(f));
                     return;
                   }
                   auto items = r.find(std::string(result_field(k)));
                   if (items == r.end() || !items->is_array()) {
                     done(std::nullopt, rpc_failure{-32603, "malformed list result", r});
                     return;
                   }
                   for (auto& d : *items)
                     acc.push_back(d);
                   auto next = r.find("nextCursor");
                   if (next != r.end() && next->is_string() && !next->get<std::string>().empty()
                       && pages + 1 < opts.max_list_pages) {
                     fetch_list(k, std::move(done), std::move(acc), *next, pages + 1);
                     return;
                   }
                   done(std::move(acc), std::nullopt);
                 });
  }

  /// A fresh copy of list `k` replaces ours: the content cached for items
  /// that left goes, the rest stays (seed 000).
  /// What leaves loses its cached content before the list shows it gone:
  /// a reader that finds it gone never finds its content still cached.
  /// (Only the loop writes the lists, so the copy cannot go stale.)
  void adopt_list(list_kind k, std::vector<json> fresh) {
    descriptor_list next = [&] {
      std::lock_guard<std::mutex> g(view_mtx);
      return lists.at(k);
    }();
    for (const auto& key : next.replace(std::move(fresh)))
      forget_cached(k, key);
    {
      std::lock_guard<std::mutex> g(view_mtx);
      lists.at(k) = std::move(next);
    }
    emit(changed_event(k), {});
  }

  void forget_cached(list_kind k, const std::string& key) {
    switch (k) {
      case list_kind::tools: cache.clear_tool_call_result(key); break;
      case list_kind::resources: cache.clear_resource(key); break;
      case list_kind::resource_templates: cache.clear_resource_template(key); break;
      case list_kind::prompts: cache.clear_prompt(key); break;
    }
  }

  static client_event_kind changed_event(list_kind k) {
    switch (k) {
      case list_kind::tools: return client_event_kind::tools_changed;
      case list_kind::resources: return client_event_kind::resources_changed;
      case list_kind::resource_templates: return client_event_kind::resource_templates_changed;
      case list_kind::prompts: return client_event_kind::prompts_changed;
    }
    return client_event_kind::tools_changed;
  }

  void start_reload(list_kind k) {
    ++reload_count;
    fetch_list(k, [this, k](std::optional<std::vector<json>> items, std::optional<rpc_failure> f) {
      if (items)
        adopt_list(k, std::move(*items));
      auto out = reloads.finished(k, items.has_value(), steady::now());
      if (f)
        emit(
          client_event_kind::reload_failed, std::string(to_string(k)),
          {{"failures", out.failures}, {"error", f->message}, {"code", f->code}, {"retrying", !out.gave_up}});
      if (out.start_now)
        start_reload(k);
    });
  }

  bool follows(list_kind k) const {
    auto& f = opts.follow_list_changed;
    bool wanted = k == list_kind::tools ? f.tools : k == list_kind::prompts ? f.prompts : f.resources;
    const char* cap = k == list_kind::tools ? "tools" : k == list_kind::prompts ? "prompts" : "resources";
    std::lock_guard<std::mutex> g(view_mtx);
    auto c = capabilities.find(cap);
    return wanted && c != capabilities.end() && c->is_object() && member_or(*c, "listChanged", false);
  }

  void on_list_changed(const std::string& method, const json& params) {
    // cafmcp's operation metadata patches the copy without a round trip,
    // unless a reload is under way (its answer could predate this change).
    if (auto c = parse_list_change(method, params); c && follows(c->kind) && !reloads.busy(c->kind)) {
      // A removed item's content goes before the list shows it gone (as in
      // adopt_list).
      if (c->operation == "removed")
        forget_cached(c->kind, c->key);
      std::optional<std::string> gone;
      {
        std::lock_guard<std::mutex> g(view_mtx);
        gone = lists.at(c->kind).apply(c->operation, c->key, c->descriptor);
      }
      if (gone && *gone != c->key)
        forget_cached(c->kind, *gone);
      emit(changed_event(c->kind), c->key, {{"operation", c->operation}});
      return;
    }
    for (auto k : lists_for(method)) {
      if (!follows(k) || (k == list_kind::resource_templates && !templates_supported))
        continue;
      if (reloads.notified(k))
        start_reload(k);
    }
  }

  void on_server_request(const json& msg) {
    std::string method = msg["method"];
    json id = msg["id"];
    if (method == "ping") {
      transport->send(jsonrpc::wire_text(jsonrpc::result_message(id, json::object())));
      return;
    }
    std::function<json(const json&)> handler;
    if (method == "sampling/createMessage")
      handler = opts.on_sampling;
    else if (method == "elicitation/create")
      handler = opts.on_elicitation;
    else if (method == "roots/list")
      handler = opts.on_roots;
    callbacks.post(
      [self = shared_from_this(), handler, method, id, params = msg.value("params", json::object())] {
        json reply;
        if (!handler) {
          reply =
            jsonrpc::error_message(id, jsonrpc::code::method_not_found, "client does not handle " + method);
        } else {
          try {
            reply = jsonrpc::result_message(id, handler(params));
          } catch (const std::exception& e) {
            reply = jsonrpc::error_message(id, jsonrpc::code::internal_error, e.what());
          }
        }
        self->transport->send(jsonrpc::wire_text(reply));
      });
  }

  void on_notification(const json& msg) {
    const std::string method = msg["method"];
    json params = msg.value("params", json::object());
    if (method.size() > 13 && method.compare(method.size() - 13, 13, "/list_changed") == 0) {
      on_list_changed(method, params);
    } else if (method == "notifications/resources/updated" && params.is_object()
               && params["uri"].is_string()) {
      std::string uri = params["uri"];
      {
        std::lock_guard<std::mutex> g(view_mtx);
        if (!subscribed.count(uri))
          return; // not asked for: nothing of ours is stale
      }
      cache.clear_resource_and_templates(uri);
      emit(client_event_kind::resource_updated, uri, params);
    } else if (method == "notifications/tasks/status" && params.is_object()) {
      emit(client_event_kind::task_status, member_or(params, "taskId", ""), params);
    } else if (method == "notifications/message") {
      emit(client_event_kind::log_message, member_or(params, "logger", ""), params);
    } else if (method == "notifications/progress" && params.is_object()) {
      auto token = params.value("progressToken", json());
      auto it = token.is_string() ? progress.find(token.get<std::string>()) : progress.end();
      if (it != progress.end())
        callbacks.post([h = it->second, params] { h(params); });
    }
  }

  void on_text(const std::string& text) {
    json msg = json::parse(text, nullptr, false);
    if (!msg.is_object())
      return; // a transport delivers whole messages; garbage is the server's fault, not a crash
    bool has_method = msg.contains("method") && msg["method"].is_string();
    try {
      if (has_method && msg.contains("id"))
        on_server_request(msg);
      else if (has_method)
        on_notification(msg);
      else
        rpc.complete(msg);
    } catch (const json::exception&) {
      // A member of a type no reader here foresaw: the message is dropped,
      // the client and its process stay (an answer's own callback failing
      // is caught in send_request, and its call fails).
    }
  }

  void on_closed(const std::string& reason) {
    if (closed)
      return;
    closed = true;
    rpc.fail_all(closed_failure(reason));
    progress.clear();
    clear_subscriptions();
    emit(client_event_kind::closed, {}, {{"reason", reason}});
  }

  void clear_subscriptions() {
    std::set<std::string> was;
    {
      std::lock_guard<std::mutex> g(view_mtx);
      was.swap(subscribed);
    }
    if (!was.empty())
      emit(client_event_kind::subscriptions_changed, {}, {{"uris", json::array()}});
  }

  void set_subscribed(const std::string& uri, bool on) {
    json uris = json::array();
    {
      std::lock_guard<std::mutex> g(view_mtx);
      if (on)
        subscribed.insert(uri);
      else
        subscribed.erase(uri);
      for (auto& u : subscribed)
        uris.push_back(u);
    }
    emit(client_event_kind::subscriptions_changed, uri, {{"uris", uris}});
  }

  // -- futures from the loop --------------------------------------------------
  /// Runs `start` on the loop; it completes the shared promise.
  template <class T, class F>
  std::future<T> on_loop(F start) {
    auto p = std::make_shared<std::promise<T>>();
    auto f = p->get_future();
    if (!loop.post([p, start = std::move(start)]() mutable { start(p); }))
      fail(*p, closed_failure("client closed"));
    return f;
  }

  std::future<json> call(std::string method, json params,
                         std::function<void(const json&)> on_progress = nullptr,
                         std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return on_loop<json>([this, method = std::move(method), params = std::move(params),
                          on_progress = std::move(on_progress), timeout](auto p) mutable {
      send_request(
        method, std::move(params),
        [p](json r, std::optional<rpc_failure> f) {
          if (f)
            fail(*p, std::move(*f));
          else
            p->set_value(std::move(r));
        },
        std::move(on_progress), timeout);
    });
  }

  /// A request whose result carries nothing: `around(ok, before)` runs on the
  /// loop before it is sent (before = true, ok = true) and after its answer.
  std::future<void> call_void(std::string method, json params,
                              std::function<void(bool ok, bool before)> around = nullptr) {
    return on_loop<void>([this, method = std::move(method), params = std::move(params),
                          around = std::move(around)](auto p) mutable {
      if (around)
        around(true, true);
      send_request(method, std::move(params), [p, around](json, std::optional<rpc_failure> f) {
        if (around)
          around(!f, false);
        if (f)
          fail(*p, std::move(*f));
        else
          p->set_value();
      });
    });
  }

  std::future<std::vector<json>> list(list_kind k) {
    return on_loop<std::vector<json>>([this, k](auto p) {
      fetch_list(k, [this, k, p](std::optional<std::vector<json>> items, std::optional<rpc_failure> f) {
        if (!items) {
          fail(*p, std::move(*f));
          return;
        }
        adopt_list(k, *items);
        p->set_value(std::move(*items));
      });
    });
  }

  /// A fetch whose result (or error) becomes invocation `I`, cached by `store`.
  template <class I, class Fill>
  std::future<std::shared_ptr<const I>>
  fetch(std::string method, json params, Fill fill, bool cache_failures,
        std::function<void(const json&)> on_progress = nullptr,
        std::optional<std::chrono::milliseconds> timeout = std::nullopt) {
    return on_loop<std::shared_ptr<const I>>([this, method = std::move(method), params = std::move(params),
                                              fill, cache_failures, on_progress = std::move(on_progress),
                                              timeout](auto p) mutable {
      auto started = invocation::clock::now();
      send_request(
        method, std::move(params),
        [this, p, fill, started, cache_failures](json r, std::optional<rpc_failure> f) {
          auto inv = std::make_shared<I>();
          fill(*inv);
          inv->started = started;
          inv->finished = invocation::clock::now();
          inv->result = std::move(r);
          inv->error = std::move(f);
          std::shared_ptr<const I> done = inv;
          if (done->ok() || cache_failures)
            cache.store(done);
          p->set_value(done);
        },
        std::move(on_progress), timeout);
    });
  }

  std::future<json> connect() {
    return on_loop<json>([this](auto p) {
      json caps = opts.capabilities.is_object() ? opts.capabilities : json::object();
      if (opts.on_sampling)
        caps["sampling"] = json::object();
      if (opts.on_elicitation)
        caps["elicitation"] = json::object();
      if (opts.on_roots)
        caps["roots"] = {{"listChanged", false}};
      json params = {{"protocolVersion", opts.protocol_version},
                     {"capabilities", caps},
                     {"clientInfo", {{"name", opts.name}, {"version", opts.version}}}};
      send_request("initialize", params, [this, p](json r, std::optional<rpc_failure> f) {
        if (f) {
          fail(*p, std::move(*f));
          return;
        }
        std::string v = member_or(r, "protocolVersion", "");
        if (!is_supported_protocol_version(v)) {
          fail(*p, rpc_failure{client_error_code::not_supported,
                               "server chose an unsupported protocol version: " + v, r});
          return;
        }
        {
          std::lock_guard<std::mutex> g(view_mtx);
          capabilities = r.value("capabilities", json::object());
          info = r.value("serverInfo", json::object());
          version = v;
        }
        transport->send(jsonrpc::wire_text(jsonrpc::notification_message("notifications/initialized")));
        transport->negotiated(v);
        load_declared_lists([p, r] { p->set_value(r); });
      });
    });
  }

  /// The lists the server declares, loaded once after initialize.
  void load_declared_lists(std::function<void()> then) {
    std::vector<list_kind> kinds;
    {
      std::lock_guard<std::mutex> g(view_mtx);
      if (capabilities.contains("tools"))
        kinds.push_back(list_kind::tools);
      if (capabilities.contains("resources"))
        kinds.insert(kinds.end(), {list_kind::resources, list_kind::resource_templates});
      if (capabilities.contains("prompts"))
        kinds.push_back(list_kind::prompts);
    }
    auto left = std::make_shared<std::size_t>(kinds.size());
    if (kinds.empty())
      then();
    for (auto k : kinds)
      fetch_list(k,
                 [this, k, left, then](std::optional<std::vector<json>> items, std::optional<rpc_failure> f) {
                   if (items)
                     adopt_list(k, std::move(*items));
                   else if (k == list_kind::resource_templates && f->code == -32601)
                     templates_supported = false;
                   if (--*left == 0)
                     then();
                 });
  }
};

// -- the API: each call is one message to the loop ----------------------------

client::client(std::unique_ptr<client_transport> transport, client_options opts)
  : impl_(std::make_shared<impl>(std::move(transport), std::move(opts))) {
  std::weak_ptr<impl> weak = impl_;
  impl_->transport->start({[weak](std::string text) {
                             if (auto i = weak.lock())
                               i->loop.post([i, text = std::move(text)] { i->on_text(text); });
                           },
                           [weak](std::string reason) {
                             if (auto i = weak.lock())
                               i->loop.post([i, reason = std::move(reason)] { i->on_closed(reason); });
                           }});
}

client::~client() {
  close();
  impl_->loop.stop();
  impl_->callbacks.stop();
  // The transport's threads end here, while this client still holds the
  // state they would otherwise keep alive.
  impl_->transport.reset();
}

std::future<json> client::connect() { return impl_->connect(); }

void client::close() {
  if (impl_->close_requested.exchange(true))
    return;
  impl_->transport->close();
  // Whatever the transport reports, the client is closed from here on.
  impl_->loop.post([i = impl_] { i->on_closed("closed by the client"); });
}

// Copies, taken under the lock that a reconnect's initialize writes them under.
json client::server_capabilities() const {
  std::lock_guard<std::mutex> g(impl_->view_mtx);
  return impl_->capabilities;
}
json client::server_info() const {
  std::lock_guard<std::mutex> g(impl_->view_mtx);
  return impl_->info;
}
std::string client::protocol_version() const {
  std::lock_guard<std::mutex> g(impl_->view_mtx);
  return impl_->version;
}

std::future<std::vector<json>> client::list_tools() { return impl_->list(list_kind::tools); }
std::future<std::vector<json>> client::list_resources() { return impl_->list(list_kind::resources); }
std::future<std::vector<json>> client::list_resource_templates() {
  return impl_->list(list_kind::resource_templates);
}
std::future<std::vector<json>> client::list_prompts() { return impl_->list(list_kind::prompts); }

namespace {
std::vector<json> copy_of(const client::impl& i, list_kind k) {
  std::lock_guard<std::mutex> g(i.view_mtx);
  return i.lists.at(k).items();
}
} // namespace

std::vector<json> client::tools() const { return copy_of(*impl_, list_kind::tools); }
std::vector<json> client::resources() const { return copy_of(*impl_, list_kind::resources); }
std::vector<json> client::resource_templates() const {
  return copy_of(*impl_, list_kind::resource_templates);
}
std::vector<json> client::prompts() const { return copy_of(*impl_, list_kind::prompts); }

std::future<std::shared_ptr<const resource_read>> client::read_resource(std::string uri) {
  return impl_->fetch<resource_read>(
    "resources/read", {{"uri", uri}}, [uri](resource_read& r) { r.uri = uri; }, false);
}

std::future<std::shared_ptr<const template_read>> client::read_resource_template(std::string uri_template,
                                                                                 json params) {
  uri_template::variables vars;
  if (params.is_object())
    for (auto& [k, v] : params.items())
      vars[k] = v.is_string() ? v.get<std::string>() : v.dump();
  std::string uri;
  try {
    uri = cafmcp::uri_template(uri_template).expand(vars);
  } catch (const std::exception& e) {
    return failed<std::shared_ptr<const template_read>>(
      {-32602, std::string("invalid uri template: ") + e.what(), uri_template});
  }
  return impl_->fetch<template_read>(
    "resources/read", {{"uri", uri}},
    [=](template_read& r) {
      r.uri_template = uri_template;
      r.expanded_uri = uri;
      r.params = params;
    },
    false);
}

std::future<std::shared_ptr<const prompt_get>> client::get_prompt(std::string name, json arguments) {
  json params = {{"name", name}};
  if (arguments.is_object() && !arguments.empty())
    params["arguments"] = arguments;
  return impl_->fetch<prompt_get>(
    "prompts/get", params,
    [=](prompt_get& r) {
      r.name = name;
      r.arguments = arguments;
    },
    false);
}

std::future<std::shared_ptr<const tool_call>> client::call_tool(std::string name, json arguments,
                                                                call_options opts) {
  json params = {{"name", name}, {"arguments", arguments.is_null() ? json::object() : arguments}};
  return impl_->fetch<tool_call>(
    "tools/call", params,
    [=](tool_call& r) {
      r.name = name;
      r.arguments = arguments;
    },
    true, std::move(opts.on_progress), opts.timeout);
}

namespace {
bool offers_subscriptions(const client::impl& i) {
  std::lock_guard<std::mutex> g(i.view_mtx);
  auto r = i.capabilities.find("resources");
  return r != i.capabilities.end() && r->is_object() && member_or(*r, "subscribe", false);
}
const rpc_failure no_subscriptions{
  client_error_code::not_supported,
  "the server does not offer resource subscriptions (capabilities.resources.subscribe)", nullptr};
} // namespace

std::future<void> client::subscribe(std::string uri) {
  if (!offers_subscriptions(*impl_))
    return failed<void>(no_subscriptions);
  // Marked before the request goes: an update may overtake the response (HTTP
  // sends them on different streams); a refusal unmarks it.
  return impl_->call_void("resources/subscribe", {{"uri", uri}},
                          [i = impl_.get(), uri](bool ok, bool before) {
                            if (before || !ok)
                              i->set_subscribed(uri, before);
                          });
}

std::future<void> client::unsubscribe(std::string uri) {
  if (!offers_subscriptions(*impl_))
    return failed<void>(no_subscriptions);
  return impl_->call_void("resources/unsubscribe", {{"uri", uri}},
                          [i = impl_.get(), uri](bool ok, bool before) {
                            if (!before && ok)
                              i->set_subscribed(uri, false);
                          });
}

std::vector<std::string> client::subscriptions() const {
  std::lock_guard<std::mutex> g(impl_->view_mtx);
  return {impl_->subscribed.begin(), impl_->subscribed.end()};
}

std::future<void> client::ping() { return impl_->call_void("ping", json::object()); }

std::future<void> client::set_log_level(std::string level) {
  return impl_->call_void("logging/setLevel", {{"level", level}});
}

std::future<json> client::complete(json ref, std::string argument, std::string value, json context) {
  json params = {{"ref", std::move(ref)}, {"argument", {{"name", argument}, {"value", value}}}};
  if (context.is_object())
    params["context"] = std::move(context);
  return impl_->call("completion/complete", std::move(params));
}

std::future<json> client::request(std::string method, json params) {
  return impl_->call(std::move(method), std::move(params));
}

namespace {

// A Task object (flat, as tasks/get and tasks/cancel answer it).
task_info task_of(const json& t) {
  task_info i;
  i.id = member_or(t, "taskId", "");
  i.status = member_or(t, "status", "");
  i.status_message = member_or(t, "statusMessage", "");
  if (t.contains("pollInterval") && t["pollInterval"].is_number_integer())
    i.poll_interval = std::chrono::milliseconds(t["pollInterval"].get<std::int64_t>());
  i.task = t;
  return i;
}

template <class T, class F>
std::future<T> then(std::future<json> f, F convert) {
  return std::async(std::launch::deferred,
                    [f = std::move(f), convert = std::move(convert)]() mutable { return convert(f.get()); });
}

} // namespace

bool task_info::terminal() const { return status == "completed" || status == "failed" || status == "cancelled"; }

std::future<task_info> client::start_tool_task(std::string name, json arguments,
                                               std::optional<std::chrono::milliseconds> ttl) {
  json task = json::object();
  if (ttl)
    task["ttl"] = ttl->count();
  return then<task_info>(impl_->call("tools/call", {{"name", std::move(name)},
                                                    {"arguments", std::move(arguments)},
                                                    {"task", std::move(task)}}),
                         [](json r) {
                           if (!r.contains("task") || !r["task"].is_object())
                             throw std::runtime_error("tools/call did not create a task: " + r.dump());
                           return task_of(r["task"]);
                         });
}

std::future<task_info> client::get_task(std::string id) {
  return then<task_info>(impl_->call("tasks/get", {{"taskId", std::move(id)}}), task_of);
}

std::future<task_info> client::cancel_task(std::string id) {
  return then<task_info>(impl_->call("tasks/cancel", {{"taskId", std::move(id)}}), task_of);
}

std::future<json> client::task_result(std::string id, std::chrono::milliseconds wait) {
  return impl_->call("tasks/result", {{"taskId", std::move(id)}}, nullptr, wait);
}

std::future<std::vector<task_info>> client::list_tasks() {
  return then<std::vector<task_info>>(impl_->call("tasks/list", json::object()), [](json r) {
    std::vector<task_info> out;
    if (r.contains("tasks") && r["tasks"].is_array())
      for (auto& t : r["tasks"])
        out.push_back(task_of(t));
    return out;
  });
}

content_cache& client::cache() { return impl_->cache; }

event_subscription client::on(client_event_kind kind, client_event_handler h) {
  std::uint64_t id;
  {
    std::lock_guard<std::mutex> g(impl_->handlers_mtx);
    id = ++impl_->next_handler;
    impl_->handlers[kind][id] = std::move(h);
  }
  return event_subscription([w = std::weak_ptr<impl>(impl_), kind, id] {
    if (auto i = w.lock()) {
      {
        std::lock_guard<std::mutex> g(i->handlers_mtx);
        i->handlers[kind].erase(id);
      }
      // A dispatch that copied this handler before the erase may still be
      // calling it: wait for that one to end (not from a handler itself,
      // which holds the lock already).
      if (!i->callbacks.on_own_thread()) {
        std::lock_guard<std::mutex> drained(i->dispatch_mtx);
      }
    }
  });
}

std::size_t client::reloads_started() const { return impl_->reload_count; }

} // namespace cafmcp

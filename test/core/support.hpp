#pragma once
// Small helpers shared by the core tests. Every wait has a deadline; no
// test sleeps to synchronise.
#include <chrono>
#include <condition_variable>
#include <future>
#include <mutex>
#include <optional>
#include <string>

#include <gtest/gtest.h>

#include "cafmcp/in_process.hpp"
#include "cafmcp/server.hpp"

namespace cafmcp::test {

using namespace std::chrono_literals;

inline bool applied(std::future<bool> f) {
  if (f.wait_for(5s) != std::future_status::ready)
    return false;
  return f.get();
}

inline resource text_resource(std::string uri, std::string name, std::string text) {
  resource r;
  r.uri = uri;
  r.name = std::move(name);
  r.mime_type = "text/plain";
  r.contents.push_back(resource_contents::make_text(std::move(uri), std::move(text), "text/plain"));
  return r;
}

inline tool echo_tool(std::string name) {
  tool t;
  t.name = std::move(name);
  t.description = "echoes its text argument";
  t.input_schema = {
    {"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}, {"required", {"text"}}};
  t.handler = [](const json& args, request_context&) {
    return tool_result::text(args.at("text").get<std::string>());
  };
  return t;
}

inline prompt simple_prompt(std::string name) {
  prompt p;
  p.name = std::move(name);
  p.description = "a prompt";
  p.handler = [](const std::map<std::string, std::string>&, request_context&) {
    prompt_result r;
    r.messages.push_back({"user", {{"type", "text"}, {"text", "hello"}}});
    return r;
  };
  return p;
}

inline bool is_method(const json& m, const std::string& method) { return m.value("method", "") == method; }

/// Down and activation messages are asynchronous: look at the notifier's
/// stats until `pred` holds, letting actors run between looks with a ping
/// round trip (at most `tries` of them; never a sleep).
template <class Pred>
bool eventually(server& srv, in_process_client& pinger, Pred pred, int tries = 500) {
  for (int i = 0; i < tries; ++i) {
    if (pred(srv.stats()))
      return true;
    pinger.request("ping");
  }
  return pred(srv.stats());
}

/// Calls tool `name` (arguments {text: "x"}) asking for progress under
/// `token`; returns what arrived before the response, then the response.
inline std::pair<std::vector<json>, json> call_with_progress(in_process_client& c, const std::string& name,
                                                             const json& token) {
  static int next_id = 0;
  auto id = "progress-" + std::to_string(++next_id);
  c.send(
    {{"jsonrpc", "2.0"},
     {"id", id},
     {"method", "tools/call"},
     {"params", {{"name", name}, {"arguments", {{"text", "x"}}}, {"_meta", {{"progressToken", token}}}}}});
  std::vector<json> before;
  for (;;) {
    auto m = c.wait_for([](const json&) { return true; });
    if (!m)
      return {before, json()}; // nothing more came: the caller sees a null response
    if (m->value("id", json()) == id)
      return {before, *m};
    before.push_back(*m);
  }
}

/// A tool whose calls stay in flight until release(): wait_started(n)
/// returns once n of them run (bounded). However a test ends, the calls are
/// released, so no handler thread outlives it blocked.
class held_tool {
public:
  held_tool() = default;
  held_tool(const held_tool&) = delete;
  held_tool& operator=(const held_tool&) = delete;
  ~held_tool() { release(); }

  tool make(std::string name = "hold") {
    tool t = echo_tool(std::move(name));
    t.handler = [state = state_](const json& args, request_context&) {
      std::unique_lock<std::mutex> g(state->mtx);
      ++state->started;
      state->cv.notify_all();
      state->cv.wait(g, [&] { return state->released; }); // released by the test or its end
      return tool_result::text("held " + args.at("text").get<std::string>());
    };
    return t;
  }
  bool wait_started(int n, std::chrono::milliseconds wait = 10s) {
    std::unique_lock<std::mutex> g(state_->mtx);
    return state_->cv.wait_for(g, wait, [&] { return state_->started >= n; });
  }
  void release() {
    std::lock_guard<std::mutex> g(state_->mtx);
    state_->released = true;
    state_->cv.notify_all();
  }

private:
  struct shared {
    std::mutex mtx;
    std::condition_variable cv;
    int started = 0;
    bool released = false;
  };
  std::shared_ptr<shared> state_ = std::make_shared<shared>();
};

/// A tools/call request message for `name` with arguments {text}.
inline json call_message(const json& id, const std::string& name, const std::string& text = "x") {
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"method", "tools/call"},
          {"params", {{"name", name}, {"arguments", {{"text", text}}}}}};
}

/// The response to request `id`, if one arrives within `wait`.
inline std::optional<json> response_to(in_process_client& c, const json& id,
                                       std::chrono::milliseconds wait = 10s) {
  return c.wait_for([&](const json& m) { return m.contains("id") && m["id"] == id && !m.contains("method"); },
                    wait);
}

/// Options for a server with every capability declared from the start.
inline server_options all_on() {
  server_options o;
  o.tools = o.resources = o.prompts = capability_mode::on;
  return o;
}

} // namespace cafmcp::test

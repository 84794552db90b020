// The whole MCP server in-process: a client's messages in (one per line, as
// stdio frames them), through a session actor, the server actor, workers
// and the change notifier, and every message out. One server (one CAF actor
// system) serves every input; each input is a fresh session, which ends as
// stdio EOF ends one: the requests in flight are answered, then the session
// closes its connection (connection::finish).
//
// Every message out is one well-formed JSON-RPC message; an answer names an
// id the client sent, and no id is answered more often than the client sent
// it; a request the client did not cancel is answered before the session
// closes; the session closes within its drain timeout. ASan and LSan watch
// the rest.
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "cafmcp/json_rpc.hpp"
#include "cafmcp/server.hpp"

#include "fuzz_check.hpp"
#include "fuzz_input.hpp"

namespace {

using namespace cafmcp;
using namespace std::chrono_literals;

// The client's end of one session: collects what the session sends.
struct collector : outbound {
  std::mutex mtx;
  std::condition_variable cv;
  std::vector<std::string> frames;
  bool closed = false;

  bool send(frame message, const routing&) override {
    std::lock_guard<std::mutex> guard(mtx);
    if (closed)
      return false;
    frames.push_back(*message);
    return true;
  }

  void close() override {
    std::lock_guard<std::mutex> guard(mtx);
    closed = true;
    cv.notify_all();
  }
};

// Longer than libFuzzer's -timeout (30 s in scripts/fuzz): a session that
// never answers is reported as a hang by libFuzzer. At 2 s, a run starved
// of CPU (nice 19 beside sanitizer suites: ~1.5 s per input) saw the
// timeout close a session whose answers were still on their way, and the
// check below read that as a request left unanswered.
constexpr auto drain_timeout = 60s;

tool make_tool(std::string name, json schema, tool_handler handler, bool quick = false) {
  tool t;
  t.name = std::move(name);
  t.description = "fuzz fixture";
  t.input_schema = std::move(schema);
  t.handler = std::move(handler);
  t.quick = quick;
  return t;
}

json text_args() {
  return {{"type", "object"}, {"properties", {{"text", {{"type", "string"}}}}}, {"required", {"text"}}};
}

std::vector<std::string> complete_from(const std::string& partial,
                                       const std::map<std::string, std::string>&) {
  std::vector<std::string> out;
  for (const char* c : {"alpha", "beta", "gamma"})
    if (std::string(c).rfind(partial, 0) == 0)
      out.emplace_back(c);
  return out;
}

// A little of every kind the registry serves: tools on workers and quick
// ones, validated input and output, a throwing handler, progress and logs;
// static, dynamic and templated resources; a prompt with a required
// argument; completions. Nothing blocks or asks the client (a fuzzer cannot
// answer it in time), so a session drains in milliseconds.
void install_fixtures(server& srv) {
  srv.add_tool(make_tool("echo", text_args(), [](const json& a, request_context&) {
    return tool_result::text(a.at("text").get<std::string>());
  }));
  srv.add_tool(make_tool(
    "quick_echo", text_args(),
    [](const json& a, request_context&) { return tool_result::text(a.at("text").get<std::string>()); },
    true));
  auto structured = make_tool(
    "add", {{"type", "object"}, {"properties", {{"a", {{"type", "number"}}}, {"b", {{"type", "number"}}}}}},
    [](const json& a, request_context&) {
      double sum = a.value("a", 0.0) + a.value("b", 0.0);
      return tool_result::structured({{"sum", sum}});
    });
  structured.output_schema =
    json{{"type", "object"}, {"properties", {{"sum", {{"type", "number"}}}}}, {"required", {"sum"}}};
  srv.add_tool(std::move(structured));
  srv.add_tool(make_tool("fail", {{"type", "object"}}, [](const json&, request_context&) -> tool_result {
    throw std::runtime_error("the fixture fails on purpose");
  }));
  srv.add_tool(make_tool("progress", {{"type", "object"}}, [](const json&, request_context& ctx) {
    ctx.progress(1, 2, "half");
    ctx.log(log_level::info, "working");
    ctx.progress(2, 2);
    return tool_result::text("done");
  }));

  resource text;
  text.uri = "test://static/text";
  text.name = "text";
  text.mime_type = "text/plain";
  text.contents.push_back(resource_contents::make_text(text.uri, "hello", "text/plain"));
  srv.add_resource(std::move(text));
  resource blob;
  blob.uri = "test://static/blob";
  blob.name = "blob";
  blob.contents.push_back(resource_contents::make_blob(blob.uri, "aGVsbG8=", "application/octet-stream"));
  srv.add_resource(std::move(blob));
  resource dynamic;
  dynamic.uri = "test://dynamic";
  dynamic.name = "dynamic";
  dynamic.reader = [](const std::string& uri, request_context&) {
    return std::vector<resource_contents>{resource_contents::make_text(uri, "now")};
  };
  srv.add_resource(std::move(dynamic));

  resource_template files;
  files.uri_template = "file:///{+path}";
  files.name = "files";
  files.reader = [](const std::string& uri, request_context&) -> std::vector<resource_contents> {
    if (uri.find("missing") != std::string::npos)
      throw resource_not_found_error(uri);
    return {resource_contents::make_text(uri, "contents of " + uri)};
  };
  files.completions["path"] = complete_from;
  srv.add_resource_template(std::move(files));
  resource_template rows;
  rows.uri_template = "db://{table}/rows{?limit,offset}";
  rows.name = "rows";
  rows.quick = true;
  rows.reader = [](const std::string& uri, request_context&) {
    return std::vector<resource_contents>{resource_contents::make_text(uri, "[]", "application/json")};
  };
  srv.add_resource_template(std::move(rows));

  prompt greet;
  greet.name = "greet";
  greet.description = "greets someone";
  greet.arguments.push_back({"name", std::nullopt, "who", true, complete_from});
  greet.arguments.push_back({"style", std::nullopt, std::nullopt, false, {}});
  greet.handler = [](const std::map<std::string, std::string>& args, request_context&) {
    prompt_result r;
    r.messages.push_back({"user", {{"type", "text"}, {"text", "hello " + args.at("name")}}});
    return r;
  };
  srv.add_prompt(std::move(greet));
}

server& shared_server() {
  // Never destroyed: stopping the actor system at exit is not what is
  // fuzzed, and leaks are judged per input (the server is reachable).
  static server* srv = [] {
    server_options o;
    o.tools = o.resources = o.prompts = capability_mode::on;
    // One scheduler thread, as a stdio server runs (tune_for_stdio): the
    // session, the server actor and the notifier take turns on it, while
    // handlers run on the worker pool's threads beside it. Two threads cost
    // 12% more CPU per input (perf: context switches, futex waits) for no
    // code the one does not reach; data races are the TSan lane's.
    o.scheduler_threads = 1;
    o.drain_timeout = drain_timeout;
    o.client_request_timeout = 1s;
    o.page_size = 2; // so that cursors are handed out and read back
    auto* s = new server(o);
    install_fixtures(*s);
    s->stats(); // a barrier: the fixtures are registered
    return s;
  }();
  return *srv;
}

// What the client sent, as far as answers go: how often each id was named,
// and which requests it cancelled.
struct sent {
  std::map<std::string, int> ids; // jsonrpc::to_key form
  std::map<std::string, int> requests;
  bool cancelled_any = false;
};

sent read_sent(const std::vector<std::string_view>& lines) {
  sent s;
  for (auto line : lines) {
    auto parsed = jsonrpc::parse(line);
    if (auto* bad = std::get_if<jsonrpc::parse_failure>(&parsed)) {
      if (bad->id)
        ++s.ids[jsonrpc::to_key(*bad->id)];
      continue;
    }
    auto& msg = std::get<jsonrpc::message>(parsed);
    if (auto* r = std::get_if<jsonrpc::request>(&msg)) {
      ++s.ids[jsonrpc::to_key(r->id)];
      ++s.requests[jsonrpc::to_key(r->id)];
    } else if (auto* n = std::get_if<jsonrpc::notification>(&msg)) {
      s.cancelled_any = s.cancelled_any || n->method == "notifications/cancelled";
    } else if (auto* r = std::get_if<jsonrpc::response>(&msg)) {
      ++s.ids[jsonrpc::to_key(r->id)];
    } else if (auto* e = std::get_if<jsonrpc::error_response>(&msg); e && e->id) {
      ++s.ids[jsonrpc::to_key(*e->id)];
    }
  }
  return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto& srv = shared_server();
  auto lines = fuzz::split_lines(data, size);
  auto out = std::make_shared<collector>();
  auto conn = srv.connect(out);
  {
    // As serve_stdio reads by default (stdio_options::actors_on_reader):
    // what the lines wake runs on this thread before it waits, and what
    // handlers and timers wake later runs on the actor threads.
    std::deque<std::function<void()>> later;
    auto unit = srv.run_actors_here([&later](std::function<void()> job) { later.push_back(std::move(job)); });
    for (auto line : lines)
      conn->receive(std::string(line));
    while (!later.empty()) {
      auto job = std::move(later.front());
      later.pop_front();
      job();
    }
  }
  conn->finish();
  {
    std::unique_lock<std::mutex> lock(out->mtx);
    bool closed = out->cv.wait_for(lock, drain_timeout + 10s, [&] { return out->closed; });
    FUZZ_CHECK(closed);
  }
  conn.reset();

  auto client = read_sent(lines);
  std::map<std::string, int> answered;
  for (auto& text : out->frames) {
    auto parsed = jsonrpc::parse(text);
    auto* msg = std::get_if<jsonrpc::message>(&parsed);
    if (!msg)
      std::fprintf(stderr, "not JSON-RPC: %s\n", text.c_str());
    FUZZ_CHECK(msg != nullptr);
    if (auto* r = std::get_if<jsonrpc::response>(msg)) {
      ++answered[jsonrpc::to_key(r->id)];
    } else if (auto* e = std::get_if<jsonrpc::error_response>(msg); e && e->id) {
      ++answered[jsonrpc::to_key(*e->id)];
    }
  }
  for (auto& [key, n] : answered) {
    if (n > client.ids[key])
      std::fprintf(stderr, "id %s answered %d times, sent %d times\n", key.c_str(), n, client.ids[key]);
    FUZZ_CHECK(n <= client.ids[key]);
  }
  if (!client.cancelled_any)
    for (auto& [key, n] : client.requests) {
      if (!answered.count(key)) {
        std::fprintf(stderr, "request %s not answered before the session closed; what came out:\n", key.c_str());
        for (auto& text : out->frames)
          std::fprintf(stderr, "  %s\n", text.c_str());
      }
      FUZZ_CHECK(answered.count(key));
    }
  return 0;
}

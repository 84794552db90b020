// The stdio transport on real pipes: one message per line, nothing but
// JSON-RPC on the output, oversize lines answered, EOF ends with 0.
#include <algorithm>
#include <atomic>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <future>
#include <set>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

#include "mutator.hpp"
#include "support.hpp"
#include "foundation/usable_cpus.hpp"
#include "held_to_one_cpu.hpp"
#include "actors/server_access.hpp"
#include "transport/stdio.hpp"
#include "where_tool.hpp"

namespace cafmcp::test {
namespace {

struct pipes {
  int to_server[2];
  int from_server[2];
  pipes() {
    EXPECT_EQ(::pipe(to_server), 0);
    EXPECT_EQ(::pipe(from_server), 0);
  }
  void write_line(const std::string& s) {
    auto line = s + "\n";
    EXPECT_EQ(::write(to_server[1], line.data(), line.size()), static_cast<ssize_t>(line.size()));
  }
  std::string buffer;
  /// The next line; "" at EOF or when nothing came within `wait`.
  std::string read_line(std::chrono::milliseconds wait = std::chrono::seconds(10)) {
    for (;;) {
      auto nl = buffer.find('\n');
      if (nl != std::string::npos) {
        auto line = buffer.substr(0, nl);
        buffer.erase(0, nl + 1);
        return line;
      }
      pollfd ready{from_server[0], POLLIN, 0};
      if (::poll(&ready, 1, static_cast<int>(wait.count())) <= 0)
        return {};
      char chunk[65536];
      auto n = ::read(from_server[0], chunk, sizeof chunk);
      if (n <= 0)
        return {};
      buffer.append(chunk, static_cast<std::size_t>(n));
    }
  }
};

// serve_stdio on its own thread over real pipes, as a process's main runs it.
struct served_stdio {
  pipes p;
  int status = -1;
  bool eof_sent = false;
  std::atomic<pid_t> reader_tid{0}; // before `thread`, which sets it: members start in this order
  std::thread thread;
  /// The serving thread is named "stdio-reader".
  explicit served_stdio(server& srv, stdio_options options = {})
    : thread([this, &srv, options] {
        pthread_setname_np(pthread_self(), "stdio-reader");
        reader_tid = ::gettid();
        status = transport::serve_stdio(srv, p.to_server[0], p.from_server[1], options);
      }) {}
  ~served_stdio() { // a failed assertion must not leave the thread running
    eof();
    if (thread.joinable()) {
      // Nobody reads any more: a write into a full pipe fails (EPIPE)
      // instead of blocking the server's writer, and with it this join.
      ::close(p.from_server[0]);
      thread.join();
      ::close(p.from_server[1]);
      ::close(p.to_server[0]);
    }
  }
  /// The client closes its end of stdin.
  void eof() {
    if (!eof_sent)
      ::close(p.to_server[1]);
    eof_sent = true;
  }
  /// initialize, initialized, then `tools/call` of `tool` as request 2.
  void initialize_and_call(const std::string& tool) {
    p.write_line(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"s","version":"1"}}})");
    ASSERT_TRUE(json::parse(p.read_line()).contains("result"));
    p.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
    p.write_line(R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":")" + tool
                 + R"(","arguments":{}}})");
  }
  /// What the server wrote after serve_stdio returned and its stdout closed.
  std::string output_after_exit() {
    ::close(p.from_server[1]);
    auto rest = p.read_line();
    ::close(p.to_server[0]);
    ::close(p.from_server[0]);
    return rest;
  }
};

TEST(Stdio, ServesLinesAndExitsZeroOnEof) {
  auto o = all_on();
  o.message_limits.max_message_bytes = 1024;
  server srv(o);
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  pipes p;
  int status = -1;
  std::thread t([&] { status = transport::serve_stdio(srv, p.to_server[0], p.from_server[1]); });
  p.write_line(
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"s","version":"1"}}})");
  auto init = json::parse(p.read_line());
  EXPECT_EQ(init["result"]["protocolVersion"], "2025-06-18");
  p.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  p.write_line(std::string(5000, 'x')); // oversize garbage: cut, answered, skipped
  auto big = json::parse(p.read_line());
  EXPECT_EQ(big["error"]["code"], -32600);
  p.write_line("not json");
  EXPECT_EQ(json::parse(p.read_line())["error"]["code"], -32700);
  p.write_line(
    R"({"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}})");
  auto call = json::parse(p.read_line());
  EXPECT_EQ(call["id"], 2);
  EXPECT_EQ(call["result"]["content"][0]["text"], "hi");
  ::close(p.to_server[1]); // EOF
  t.join();
  EXPECT_EQ(status, 0);
  ::close(p.from_server[1]);
  EXPECT_EQ(p.read_line(), ""); // nothing else was written
  ::close(p.to_server[0]);
  ::close(p.from_server[0]);
}

// Lines as the reader finds them: one longer than a read takes (it arrives
// over several), lines ending in CRLF, two lines in one write. Each is one
// message, byte for byte: the long one's text comes back whole.
TEST(Stdio, LinesLongerThanAReadOrEndingInCrlfArriveWhole) {
  auto o = all_on();
  o.message_limits.max_message_bytes = 256 * 1024;
  server srv(o);
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  served_stdio io(srv);
  io.p.write_line(
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"s","version":"1"}}})"
    "\r");
  ASSERT_TRUE(json::parse(io.p.read_line()).contains("result"));
  auto call = [](int id, const std::string& text) {
    return json{{"jsonrpc", "2.0"},
                {"id", id},
                {"method", "tools/call"},
                {"params", {{"name", "echo"}, {"arguments", {{"text", text}}}}}}
      .dump();
  };
  std::string text(150 * 1024, 'a'); // the reader takes 64 KiB at a time
  for (std::size_t i = 0; i < text.size(); i += 7)
    text[i] = static_cast<char>('b' + i % 23);
  io.p.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})"
                  "\r\n"
                  + call(2, text) + "\r");
  auto long_answer = json::parse(io.p.read_line());
  EXPECT_EQ(long_answer["id"], 2);
  EXPECT_TRUE(long_answer["result"]["content"][0]["text"] == text); // not printed: 150 KiB
  io.p.write_line(call(3, "x") + "\n" + call(4, "y") + "\r");
  // Two calls in flight at once may be answered in either order (a tool
  // call runs beside the next line): each answer is matched by its id.
  std::map<int, std::string> by_id;
  for (int i = 0; i < 2; ++i) {
    auto answer = json::parse(io.p.read_line());
    by_id[answer["id"].get<int>()] = answer["result"]["content"][0]["text"].get<std::string>();
  }
  EXPECT_EQ(by_id, (std::map<int, std::string>{{3, "x"}, {4, "y"}}));
  io.eof();
  io.thread.join();
  EXPECT_EQ(io.status, 0);
}

// Damaged lines (flipped, cut, repeated, hostile tokens spliced in, or
// members of the wrong type and size) from a client that has initialized: whatever they are, every line the
// server writes is one whole JSON-RPC message, a ping after each batch is still answered, and EOF still ends
// the server with 0.
TEST(Stdio, DamagedLinesGetJsonRpcAnswersAndTheServerCarriesOn) {
  auto o = all_on();
  o.message_limits.max_message_bytes = 2048;
  server srv(o);
  ASSERT_TRUE(applied(srv.add_tool(echo_tool("echo"))));
  ASSERT_TRUE(applied(srv.add_resource(text_resource("test://doc", "doc", "text"))));
  served_stdio io(srv);
  io.p.write_line(
    R"({"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"s","version":"1"}}})");
  ASSERT_TRUE(json::parse(io.p.read_line()).contains("result"));
  io.p.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  const std::vector<std::string> lines = {
    R"({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"h\u00e9"}}})",
    R"({"jsonrpc":"2.0","id":2,"method":"resources/read","params":{"uri":"test://doc"}})",
    R"({"jsonrpc":"2.0","id":3,"method":"resources/subscribe","params":{"uri":"test://doc"}})",
    R"({"jsonrpc":"2.0","id":4,"method":"tools/list","params":{"cursor":"abc"}})",
    R"({"jsonrpc":"2.0","id":5,"method":"logging/setLevel","params":{"level":"debug"}})",
    R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}})",
    R"({"jsonrpc":"2.0","id":6,"result":{}})",
  };
  mutator mutate(20261123);
  int answers = 0;
  for (int batch = 0; batch < 20; ++batch) {
    for (int i = 0; i < 50; ++i) {
      const auto& valid = lines[static_cast<std::size_t>(batch * 50 + i) % lines.size()];
      auto line = i % 2 ? mutate(valid) : mutate.reshape(valid);
      line.erase(std::remove(line.begin(), line.end(), '\n'), line.end()); // one line each
      io.p.write_line(line);
    }
    auto sentinel = "ping-" + std::to_string(batch);
    io.p.write_line(json{{"jsonrpc", "2.0"}, {"id", sentinel}, {"method", "ping"}}.dump());
    for (;;) { // answers to the batch (in any order), until the ping's
      auto out = io.p.read_line();
      ASSERT_FALSE(out.empty()) << "no answer to " << sentinel;
      auto msg = jsonrpc::parse(out);
      ASSERT_TRUE(std::holds_alternative<jsonrpc::message>(msg)) << "not one JSON-RPC message: " << out;
      ++answers;
      if (json::parse(out).value("id", json()) == sentinel)
        break;
    }
  }
  EXPECT_GT(answers, 500); // most damaged requests are answered (an error, mostly)
  io.eof();
  io.thread.join();
  EXPECT_EQ(io.status, 0);
}

// A client may close stdin right after its last request (the spec's stdio
// shutdown begins that way): what it already asked is still answered.
TEST(Stdio, EofAnswersRequestsStillInFlightBeforeExiting) {
  server srv(all_on());
  std::promise<void> started, release;
  auto gate = release.get_future().share();
  tool slow;
  slow.name = "gated";
  slow.handler = [&started, gate](const json&, request_context&) {
    started.set_value();
    gate.wait_for(30s);
    return tool_result::text("finished after EOF");
  };
  ASSERT_TRUE(applied(srv.add_tool(slow)));
  in_process_client pinger(srv);
  ASSERT_TRUE(pinger.initialize().contains("protocolVersion"));
  served_stdio io(srv);
  io.initialize_and_call("gated");
  ASSERT_EQ(started.get_future().wait_for(10s), std::future_status::ready);
  io.eof(); // while the call runs
  EXPECT_TRUE(eventually(srv, pinger, [](const server_stats& s) { return s.draining_sessions == 1; }));
  release.set_value();
  auto answer = json::parse(io.p.read_line());
  EXPECT_EQ(answer["id"], 2);
  EXPECT_EQ(answer["result"]["content"][0]["text"], "finished after EOF");
  io.thread.join();
  EXPECT_EQ(io.status, 0);
  EXPECT_TRUE(eventually(srv, pinger, [](const server_stats& s) { return s.draining_sessions == 0; }));
  EXPECT_EQ(io.output_after_exit(), "");
}

// initialize and resources/(un)subscribe are answered by the server actor
// or the notifier, not by a worker: a client that closed stdin right after
// sending them got no answer at all (the draining session closed at once).
// Found by fuzz/mcp_dispatch (fuzz/corpus/mcp_dispatch/eof_after_*).
TEST(Stdio, EofRightAfterInitializeAndSubscribeStillAnswersThem) {
  server srv(all_on());
  ASSERT_TRUE(applied(srv.add_resource(text_resource("test://r", "r", "x"))));
  served_stdio io(srv);
  io.p.write_line(
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"s","version":"1"}}})");
  io.p.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  io.p.write_line(R"({"jsonrpc":"2.0","id":2,"method":"resources/subscribe","params":{"uri":"test://r"}})");
  io.p.write_line(R"({"jsonrpc":"2.0","id":3,"method":"resources/unsubscribe","params":{"uri":"test://r"}})");
  io.eof();
  std::set<int> answered;
  for (int i = 0; i < 3; ++i) {
    auto line = io.p.read_line();
    ASSERT_FALSE(line.empty()) << "answers so far: " << answered.size();
    auto m = json::parse(line);
    EXPECT_TRUE(m.contains("result")) << line;
    answered.insert(m.value("id", 0));
  }
  EXPECT_EQ(answered, (std::set<int>{1, 2, 3}));
  io.thread.join();
  EXPECT_EQ(io.status, 0);
  EXPECT_EQ(io.output_after_exit(), "");
}

// Lines are first written straight from the sending thread when the pipe
// has room; once it is full they queue for the writer thread. A client that
// stops reading while megabytes of notifications are sent gets every line,
// whole and in order, when it reads again.
TEST(Stdio, AClientThatStopsReadingGetsEveryLineWholeAndInOrder) {
  auto o = all_on();
  o.max_outbound_queue = 100000;
  server srv(o);
  in_process_client pinger(srv);
  ASSERT_TRUE(pinger.initialize().contains("protocolVersion"));
  served_stdio io(srv);
  // One page of pipe: a 6 KiB line is always written in parts.
  ASSERT_EQ(::fcntl(io.p.from_server[1], F_SETPIPE_SZ, 4096), 4096);
  io.p.write_line(
    R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"s","version":"1"}}})");
  ASSERT_TRUE(json::parse(io.p.read_line()).contains("result"));
  io.p.write_line(R"({"jsonrpc":"2.0","method":"notifications/initialized"})");
  ASSERT_TRUE(eventually(srv, pinger, [](const server_stats& s) { return s.sessions == 2; }));
  constexpr int tools = 300;
  for (int i = 0; i < tools; ++i) {
    auto t = echo_tool("tool-" + std::to_string(i));
    t.description = std::string(6000, 'd');
    ASSERT_TRUE(applied(srv.add_tool(t)));
  }
  for (int i = 0; i < tools; ++i) {
    auto line = io.p.read_line();
    auto msg = json::parse(line, nullptr, false);
    ASSERT_FALSE(msg.is_discarded()) << "line " << i << " is not whole JSON: " << line.substr(0, 200);
    ASSERT_EQ(msg["method"], "notifications/tools/list_changed") << i;
    ASSERT_EQ(msg["params"]["name"], "tool-" + std::to_string(i)); // in order, none lost
  }
}

// A handler that never returns cannot keep the process alive past the limit.
TEST(Stdio, EofDrainEndsAtTheDrainTimeout) {
  auto o = all_on();
  o.drain_timeout = 50ms;
  server srv(o);
  std::promise<void> started, release;
  auto gate = release.get_future().share();
  tool stuck;
  stuck.name = "stuck";
  stuck.handler = [&started, gate](const json&, request_context& ctx) {
    started.set_value();
    while (!ctx.cancelled() && gate.wait_for(5ms) != std::future_status::ready) {
    }
    return tool_result::text("too late");
  };
  ASSERT_TRUE(applied(srv.add_tool(stuck)));
  served_stdio io(srv);
  io.initialize_and_call("stuck");
  ASSERT_EQ(started.get_future().wait_for(10s), std::future_status::ready);
  io.eof();
  io.thread.join(); // returns although the handler has not
  EXPECT_EQ(io.status, 0);
  release.set_value();
  EXPECT_EQ(io.output_after_exit(), ""); // the abandoned call's answer was not written
}

// Where a quick handler runs: on the thread reading stdin, as the actors
// the line woke do; with stdio_options::actors_on_reader off on an actor
// thread, never on the reader.
struct where_calls {
  int on_reader = 0;   // calls that ran on the reader
  int longest_run = 0; // of them, the most in a row
};

// Calls `where` up to `calls` times, stopping once `enough` in a row ran on
// the reader.
where_calls call_where(bool actors_on_reader, int calls, int enough) {
  server srv(all_on());
  EXPECT_TRUE(applied(srv.add_tool(where_tool())));
  stdio_options options;
  options.actors_on_reader = actors_on_reader;
  served_stdio io(srv, options);
  io.initialize_and_call("where");
  where_calls seen;
  int run = 0;
  for (int id = 2; id < 2 + calls && seen.longest_run < enough; ++id) {
    if (id > 2)
      io.p.write_line(R"({"jsonrpc":"2.0","id":)" + std::to_string(id)
                      + R"(,"method":"tools/call","params":{"name":"where","arguments":{}}})");
    auto answer = json::parse(io.p.read_line());
    EXPECT_EQ(answer["id"], id);
    run = answer["result"]["content"][0]["text"] == "stdio-reader" ? run + 1 : 0;
    seen.on_reader += run > 0;
    seen.longest_run = std::max(seen.longest_run, run);
  }
  io.eof();
  io.thread.join();
  EXPECT_EQ(io.status, 0);
  EXPECT_EQ(io.output_after_exit(), "");
  return seen;
}

// An actor a CAF worker holds stays there while messages keep coming: the
// first calls may meet the server actor on a worker (add_tool's answer came
// from one), and a worker taken off its CPU while it holds the actors keeps
// them until it runs again (beside a parallel build, 4 of 200 runs had 8 or
// fewer of their first 20 calls on the reader). Once nothing but the reader
// wakes the actors, calls stay on it: ten in a row within 1,000.
TEST(Stdio, AQuickCallRunsOnTheThreadReadingStdin) { EXPECT_GE(call_where(true, 1000, 10).longest_run, 10); }

TEST(Stdio, WithActorsOffTheReaderAQuickCallNeverRunsOnIt) { EXPECT_EQ(call_where(false, 20, 1).on_reader, 0); }

// A tool on a handler thread (every tool's default), and an asynchronous
// tool that answers from a thread of its own, answer through the thread
// reading stdin, as they answer through the event loop over HTTP: the
// session, idle, runs there and writes the answer. So the answer needs no
// actor thread: with the only one held busy, calls are still answered, and
// the reader, asleep in the meantime (the client waits), is woken for them.
// `before_eof` runs once every call was answered (the async test joins its
// tool's threads there: none may outlive the server).
void answers_with_the_actor_thread_busy(tool t, const std::function<void()>& before_eof = [] {}) {
  auto o = all_on();
  o.scheduler_threads = 1;
  server srv(o);
  const std::string name = t.name;
  ASSERT_TRUE(applied(srv.add_tool(std::move(t))));
  served_stdio io(srv);
  io.initialize_and_call(name);
  ASSERT_EQ(json::parse(io.p.read_line())["result"]["content"][0]["text"], "from another thread");
  // The actor thread, held: an actor that blocks in its handler until
  // released. (Given as arguments: CAF 0.17 binds a null tuple for a
  // function actor spawned with none, which UBSan reports.)
  std::promise<void> release;
  std::promise<void> holding;
  auto holder = server_access::of(srv).system->spawn(
    [](caf::event_based_actor*, std::shared_future<void> released, std::promise<void>* held) -> caf::behavior {
      return {[released, held](int) {
        held->set_value();
        released.wait();
      }};
    },
    release.get_future().share(), &holding);
  caf::anon_send(holder, 1);
  ASSERT_EQ(holding.get_future().wait_for(10s), std::future_status::ready);
  for (int id = 3; id < 8; ++id) {
    io.p.write_line(R"({"jsonrpc":"2.0","id":)" + std::to_string(id) + R"(,"method":"tools/call","params":{"name":")"
                    + name + R"(","arguments":{}}})");
    auto line = io.p.read_line(); // "" after 10 s: the answer waited for the actor thread
    ASSERT_FALSE(line.empty()) << "call " << id << " was not answered while the actor thread was busy";
    auto answer = json::parse(line);
    EXPECT_EQ(answer["id"], id);
    EXPECT_EQ(answer["result"]["content"][0]["text"], "from another thread");
  }
  release.set_value();
  caf::anon_send_exit(holder, caf::exit_reason::user_shutdown);
  before_eof();
  io.eof();
  io.thread.join();
  EXPECT_EQ(io.status, 0);
}

TEST(Stdio, AHandlerThreadsAnswerNeedsNoActorThread) {
  tool on_a_thread;
  on_a_thread.name = "on_a_thread";
  on_a_thread.description = "answers from a handler thread, a while after it is called";
  on_a_thread.handler = [](const json&, request_context&) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5)); // long enough for the reader to sleep
    return tool_result::text("from another thread");
  };
  answers_with_the_actor_thread_busy(std::move(on_a_thread));
}

TEST(Stdio, AnAnswerGivenOnTheToolsOwnThreadNeedsNoActorThread) {
  struct own_threads {
    std::mutex mtx;
    std::vector<std::thread> running;
  } own;
  tool answers_later;
  answers_later.name = "answers_later";
  answers_later.description = "answers from a thread of its own, a while after it is called";
  answers_later.async_handler = [&own](const json&, request_context&, tool_reply reply) {
    std::lock_guard<std::mutex> g(own.mtx);
    own.running.emplace_back([reply] {
      std::this_thread::sleep_for(std::chrono::milliseconds(5)); // long enough for the reader to sleep
      reply(tool_result::text("from another thread"));
    });
  };
  answers_with_the_actor_thread_busy(std::move(answers_later), [&own] {
    std::lock_guard<std::mutex> g(own.mtx);
    for (auto& t : own.running)
      t.join();
  });
}

// How often the thread reading stdin went to sleep (blocked in read(2) or
// on a lock) while a client made `calls` calls one after another, each
// sent 1 ms after the last one's answer came: a client slower than the
// server, so that a reader that does not look for the next line is asleep
// when it comes (the pause makes the workload; it waits for no event).
long reader_sleeps_during_calls(std::chrono::microseconds poll_before_sleep, int calls) {
  server srv(all_on());
  auto echo = echo_tool("echo");
  echo.quick = true; // answered on the reader: no other thread in the way
  EXPECT_TRUE(applied(srv.add_tool(std::move(echo))));
  stdio_options options;
  options.poll_before_sleep = poll_before_sleep;
  served_stdio io(srv, options);
  io.initialize_and_call("echo");
  EXPECT_EQ(json::parse(io.p.read_line())["id"], 2);
  auto sleeps = [&io] {
    std::ifstream status("/proc/self/task/" + std::to_string(io.reader_tid.load()) + "/status");
    std::string line;
    while (std::getline(status, line))
      if (line.rfind("voluntary_ctxt_switches:", 0) == 0)
        return std::stol(line.substr(24));
    ADD_FAILURE() << "no voluntary_ctxt_switches for the reader";
    return 0L;
  };
  auto before = sleeps();
  for (int id = 3; id < 3 + calls; ++id) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    io.p.write_line(R"({"jsonrpc":"2.0","id":)" + std::to_string(id)
                    + R"(,"method":"tools/call","params":{"name":"echo","arguments":{"text":"x"}}})");
    auto answer = io.p.read_line();
    EXPECT_EQ(json::parse(answer.empty() ? "null" : answer)["id"], id);
  }
  auto after = sleeps();
  io.eof(); // EOF ends even a reader polling for an hour
  io.thread.join();
  EXPECT_EQ(io.status, 0);
  EXPECT_EQ(io.output_after_exit(), "");
  return after - before;
}

// A reader told to look for the next line for an hour finds each line
// while still awake (and leaves the loop at once when it comes, and at
// EOF); one that does not look sleeps before nearly every line.
TEST(Stdio, TheReaderLooksForTheNextLineBeforeItSleeps) {
  if (detail::usable_cpus() < 2)
    GTEST_SKIP() << "this thread may run on one CPU only: the reader never polls there (the next test)";
  EXPECT_LE(reader_sleeps_during_calls(std::chrono::hours(1), 20), 5);
}

// A reader that may run on one CPU only shares it with its client (here:
// this thread; a client that starts the server under taskset passes its
// mask on), so a poll there could only find the line once the client got
// the CPU from it: it sleeps instead, however long it was told to look.
TEST(Stdio, AReaderThatMayRunOnOneCpuOnlySleepsBetweenLines) {
  held_to_one_cpu here;
  EXPECT_GE(reader_sleeps_during_calls(std::chrono::hours(1), 20), 15);
}

TEST(Stdio, WithoutPollingTheReaderSleepsBetweenLines) {
  EXPECT_GE(reader_sleeps_during_calls(std::chrono::microseconds(0), 20), 15);
}

} // namespace
} // namespace cafmcp::test

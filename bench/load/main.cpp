// cafmcp-load: drives any Streamable HTTP MCP server that has the
// everything-server's mutation tools and reports what its sessions receive.
//
//   fanout:   K sessions, each with its GET stream, subscribed to W*U uris;
//             W drivers call update_resource M times in all, keeping at most
//             `window` mutations not yet delivered to every session
//             (window 1 = one update at a time). Every resources/updated is
//             checked: driver w cycles through its U uris, so each session must
//             see them in cyclic order, exactly once per mutation (loss,
//             duplicates and reordering are counted, not guessed).
//   requests: C clients each call tools/call test_simple_text back to back.
//
// Latency is mutation sent -> notification parsed, both on this process's
// steady (CLOCK_MONOTONIC) clock. One event-loop thread; its CPU is reported.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <unordered_map>

#include <CLI/CLI.hpp>

#include "load_stats.hpp"
#include "mcp_http.hpp"
#include "mcp_stdio.hpp"
#include "server_process.hpp"

namespace cafmcp::load {
namespace {

using clock_type = std::chrono::steady_clock;
using net::use_awaitable;

struct options {
  std::string mode = "fanout";
  bool stdio = false;
  std::string url;
  std::string server;
  long server_pid = 0;
  int sessions = 100;
  int mutations = 200;
  int drivers = 1;
  int uris_per_driver = 1;
  int window = 1;
  int clients = 16;
  double duration = 3;
  int setup_parallel = 16;
  int timeout = 10;
  bool json = false;
  bool trace = false;
  std::string label;
};

/// Wakes coroutines waiting on it; one timer per waiter (a timer's expiry
/// change would cancel the other waiters).
struct signal {
  explicit signal(net::any_io_executor ex) : timer(ex) {}
  net::steady_timer timer;
  task<void> wait_until(clock_type::time_point t) {
    timer.expires_at(t);
    co_await timer.async_wait(net::as_tuple(use_awaitable));
  }
  void notify() { timer.cancel(); }
};

struct result {
  std::uint64_t delivered = 0, lost = 0, duplicated = 0, out_of_order = 0, other = 0;
  double seconds = 0, client_cpu = 0;
  latency_summary latency;
  long rss_start = 0, rss_idle = 0, rss_end = 0;
  std::uint64_t requests = 0;
  std::string error;
};

/// Opens client sessions: a new Streamable HTTP session each time, or the
/// one stdio session (stdio carries exactly one; requests share it).
struct connector {
  const endpoint* ep = nullptr;
  std::shared_ptr<stdio_session> stdio;

  task<std::shared_ptr<rpc_session>> open(std::string name) {
    if (stdio)
      co_return stdio;
    auto ex = co_await net::this_coro::executor;
    auto s = std::make_shared<mcp_session>(ex, *ep);
    co_await s->open(name);
    co_return s;
  }
  /// A session this run no longer needs (the stdio one ends with the run).
  void done_with(rpc_session& s) {
    if (!stdio)
      s.close();
  }
  void finish() {
    if (stdio)
      stdio->close(); // ends its reader, so the event loop can return
  }
};

long server_rss(pid_t pid) { return pid > 0 ? rss_kib(pid) : 0; }

// ---------------------------------------------------------------- fanout
class fanout {
public:
  fanout(net::io_context& io, connector& conn, const options& o, pid_t pid)
      : io_(io), conn_(conn), o_(o), pid_(pid), done_signal_(io.get_executor()) {
    for (int w = 0; w < o.drivers; ++w) {
      driver d{io.get_executor()};
      d.total = o.mutations / o.drivers + (w < o.mutations % o.drivers ? 1 : 0);
      d.sent_at.resize(static_cast<std::size_t>(d.total));
      d.delivered.assign(static_cast<std::size_t>(d.total), 0);
      for (int i = 0; i < o.uris_per_driver; ++i) {
        auto uri = "bench://load/d" + std::to_string(w) + "/u" + std::to_string(i);
        d.uris.push_back(uri);
        uri_index_[uri] = {w, i};
      }
      drivers_.push_back(std::move(d));
    }
    latencies_.reserve(static_cast<std::size_t>(o.sessions) * static_cast<std::size_t>(o.mutations));
  }

  task<void> run(result& r) {
    auto ex = co_await net::this_coro::executor;
    // Resources first, from one session, so subscribers see no list churn.
    auto admin = co_await conn_.open("cafmcp-load-admin");
    for (auto& d : drivers_)
      for (auto& uri : d.uris)
      {
        auto args = resource_args(uri);
        check_tool(co_await admin->call_tool("add_resource", std::move(args)));
      }
    r.rss_start = server_rss(pid_);
    // Sessions, a few at a time.
    subscribers_.resize(static_cast<std::size_t>(o_.sessions));
    int next = 0, ready = 0;
    signal setup_done(ex);
    std::string setup_error;
    for (int p = 0; p < std::min(o_.setup_parallel, o_.sessions); ++p)
      net::co_spawn(ex, [&]() -> task<void> {
        while (next < o_.sessions && setup_error.empty()) {
          int k = next++;
          try {
            co_await open_subscriber(k);
          } catch (const std::exception& e) {
            setup_error = "session " + std::to_string(k) + ": " + e.what();
          }
          ++ready;
          setup_done.notify();
        }
      }, net::detached);
    while (ready < o_.sessions && setup_error.empty())
      co_await setup_done.wait_until(clock_type::time_point::max());
    if (!setup_error.empty())
      throw std::runtime_error(setup_error);
    r.rss_idle = server_rss(pid_);
    // Drive.
    auto cpu0 = cpu_seconds();
    auto t0 = clock_type::now();
    int running = static_cast<int>(drivers_.size());
    std::string drive_error;
    for (std::size_t w = 0; w < drivers_.size(); ++w)
      net::co_spawn(ex, [&, w]() -> task<void> {
        try {
          co_await drive(w);
        } catch (const std::exception& e) {
          drive_error = e.what();
        }
        --running;
        done_signal_.notify();
      }, net::detached);
    // Until every mutation reached every session, or nothing moves for `timeout`.
    std::uint64_t seen = 0;
    auto last_progress = clock_type::now();
    while (!all_delivered() && drive_error.empty()) {
      co_await done_signal_.wait_until(last_progress + std::chrono::seconds(o_.timeout));
      if (delivered_ != seen) {
        seen = delivered_;
        last_progress = clock_type::now();
      } else if (clock_type::now() >= last_progress + std::chrono::seconds(o_.timeout)) {
        r.error = "no progress for " + std::to_string(o_.timeout) + " s";
        break;
      }
    }
    auto t1 = clock_type::now();
    r.client_cpu = cpu_seconds() - cpu0;
    r.seconds = std::chrono::duration<double>(t1 - t0).count();
    r.rss_end = server_rss(pid_);
    stopping_ = true;
    for (auto& d : drivers_)
      d.wake.notify();
    while (running > 0)
      co_await done_signal_.wait_until(clock_type::time_point::max());
    if (!drive_error.empty())
      r.error = drive_error; // the cause, rather than the stall it led to
    for (auto& s : subscribers_)
      if (s && s->stream)
        s->stream->close();
    conn_.done_with(*admin);
    conn_.finish();
    // Whatever did not arrive is lost.
    for (auto& s : subscribers_)
      for (std::size_t w = 0; w < drivers_.size(); ++w)
        lost_ += static_cast<std::uint64_t>(drivers_[w].total - s->received[w]);
    r.delivered = delivered_;
    r.lost = lost_;
    r.duplicated = duplicated_;
    r.out_of_order = out_of_order_;
    r.other = other_;
    r.latency = summarize(latencies_);
  }

private:
  struct driver {
    explicit driver(net::any_io_executor ex) : wake(ex) {}
    std::vector<std::string> uris;
    int total = 0;
    int sent = 0;
    int complete = 0; // mutations [0, complete) reached every session
    std::vector<clock_type::time_point> sent_at;
    std::vector<int> delivered; // sessions reached, per mutation
    signal wake;
  };
  struct subscriber {
    explicit subscriber(std::size_t drivers) : received(drivers, 0) {}
    std::unique_ptr<sse_stream> stream; // HTTP; over stdio the session's own output
    std::vector<int> received; // per driver
  };

  // (Built outside co_await expressions: g++ 12 rejects braced JSON there.)
  static nlohmann::json resource_args(const std::string& uri) {
    return {{"uri", uri}, {"name", uri}, {"text", "v"}};
  }
  static nlohmann::json uri_param(const std::string& uri) { return {{"uri", uri}}; }
  static nlohmann::json update_args(const std::string& uri, int n) {
    return {{"uri", uri}, {"text", "v" + std::to_string(n)}};
  }

  static void check_tool(const nlohmann::json& res) {
    if (res.value("isError", false))
      throw std::runtime_error("tool failed: " + res.dump());
  }

  bool all_delivered() const {
    for (auto& d : drivers_)
      if (d.complete < d.total)
        return false;
    return true;
  }

  task<void> open_subscriber(int k) {
    auto ex = co_await net::this_coro::executor;
    auto sub = std::make_unique<subscriber>(drivers_.size());
    auto* raw = sub.get();
    subscribers_[static_cast<std::size_t>(k)] = std::move(sub);
    auto s = co_await conn_.open("cafmcp-load");
    if (conn_.stdio) {
      conn_.stdio->on_notification = [this, raw](std::string_view line) { on_event(*raw, line); };
    } else {
      auto& http = static_cast<mcp_session&>(*s);
      raw->stream = std::make_unique<sse_stream>(ex, *conn_.ep);
      co_await raw->stream->open(http.session_id(), http.protocol());
      net::co_spawn(ex, raw->stream->run([this, raw](std::string_view data) { on_event(*raw, data); }),
                    net::detached);
    }
    for (auto& d : drivers_)
      for (auto& uri : d.uris)
      {
        auto params = uri_param(uri);
        co_await s->call("resources/subscribe", std::move(params));
      }
    conn_.done_with(*s); // the session lives on; its stream stays open
  }

  task<void> drive(std::size_t w) {
    auto ex = co_await net::this_coro::executor;
    auto& d = drivers_[w];
    auto s = co_await conn_.open("cafmcp-load-driver");
    auto u = d.uris.size();
    for (int n = 0; n < d.total && !stopping_; ++n) {
      while (n - d.complete >= o_.window && !stopping_)
        co_await d.wake.wait_until(clock_type::time_point::max());
      if (stopping_)
        break;
      d.sent_at[static_cast<std::size_t>(n)] = clock_type::now();
      d.sent = n + 1;
      auto args = update_args(d.uris[static_cast<std::size_t>(n) % u], n);
      check_tool(co_await s->call_tool("update_resource", std::move(args)));
    }
    conn_.done_with(*s);
  }

  void on_event(subscriber& s, std::string_view data) {
    if (o_.trace)
      std::fprintf(stderr, "event: %.*s\n", static_cast<int>(data.size()), data.data());
    if (data.find("\"notifications/resources/updated\"") == std::string_view::npos) {
      ++other_;
      return;
    }
    static constexpr std::string_view key = "\"uri\":\"";
    auto at = data.find(key);
    if (at == std::string_view::npos) {
      ++other_;
      return;
    }
    at += key.size();
    auto uri = std::string(data.substr(at, data.find('"', at) - at));
    auto it = uri_index_.find(uri);
    if (it == uri_index_.end()) {
      ++other_;
      return;
    }
    auto [w, i] = it->second;
    auto& d = drivers_[static_cast<std::size_t>(w)];
    auto& got = s.received[static_cast<std::size_t>(w)];
    int u = static_cast<int>(d.uris.size());
    if (got >= d.sent) { // more than was sent so far
      ++duplicated_;
      return;
    }
    int expected = got % u;
    if (i != expected) {
      if (u > 1 && i == (expected + u - 1) % u) {
        ++duplicated_;
        return;
      }
      // Skipped ahead: the ones between are lost (and counted as reached so
      // the drivers keep going; the session's record shows the gap).
      ++out_of_order_;
      int gap = (i - expected + u) % u;
      for (int g = 0; g < gap && got < d.sent; ++g) {
        ++lost_;
        reached(d, got++);
      }
    }
    auto now = clock_type::now();
    latencies_.push_back(static_cast<std::uint32_t>(
        std::chrono::duration_cast<std::chrono::microseconds>(now - d.sent_at[static_cast<std::size_t>(got)]).count()));
    ++delivered_;
    reached(d, got++);
  }

  void reached(driver& d, int n) {
    if (++d.delivered[static_cast<std::size_t>(n)] < o_.sessions || n != d.complete)
      return;
    while (d.complete < d.total && d.delivered[static_cast<std::size_t>(d.complete)] >= o_.sessions)
      ++d.complete;
    d.wake.notify();
    done_signal_.notify();
  }

  net::io_context& io_;
  connector& conn_;
  const options& o_;
  pid_t pid_;
  std::vector<driver> drivers_;
  std::vector<std::unique_ptr<subscriber>> subscribers_;
  std::unordered_map<std::string, std::pair<int, int>> uri_index_;
  std::vector<std::uint32_t> latencies_;
  std::uint64_t delivered_ = 0, lost_ = 0, duplicated_ = 0, out_of_order_ = 0, other_ = 0;
  bool stopping_ = false;
  signal done_signal_;
};

// ---------------------------------------------------------------- requests
task<void> request_rate(connector& conn, const options& o, pid_t pid, result& r) {
  auto ex = co_await net::this_coro::executor;
  std::vector<std::shared_ptr<rpc_session>> clients;
  for (int c = 0; c < o.clients; ++c)
    clients.push_back(co_await conn.open("cafmcp-load-requests"));
  r.rss_idle = server_rss(pid);
  std::vector<std::uint32_t> latencies;
  int running = o.clients;
  signal done(ex);
  std::string error;
  auto cpu0 = cpu_seconds();
  auto t0 = clock_type::now();
  auto until = t0 + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(o.duration));
  for (auto& c : clients)
    net::co_spawn(ex, [&, s = c.get()]() -> task<void> {
      try {
        while (clock_type::now() < until) {
          auto a = clock_type::now();
          auto res = co_await s->call_tool("test_simple_text", nlohmann::json::object());
          if (res.value("isError", false))
            throw std::runtime_error("test_simple_text failed");
          latencies.push_back(static_cast<std::uint32_t>(
              std::chrono::duration_cast<std::chrono::microseconds>(clock_type::now() - a).count()));
          ++r.requests;
        }
      } catch (const std::exception& e) {
        error = e.what();
      }
      --running;
      done.notify();
    }, net::detached);
  while (running > 0)
    co_await done.wait_until(clock_type::time_point::max());
  r.seconds = std::chrono::duration<double>(clock_type::now() - t0).count();
  r.client_cpu = cpu_seconds() - cpu0;
  r.rss_end = server_rss(pid);
  r.error = error.empty() && r.requests == 0 ? "no request completed" : error;
  r.latency = summarize(latencies);
  for (auto& c : clients)
    conn.done_with(*c);
  conn.finish();
}

void report(const options& o, const result& r) {
  double rate = r.seconds > 0 ? static_cast<double>(o.mode == "requests" ? r.requests : r.delivered) / r.seconds : 0;
  nlohmann::json j = {{"label", o.label}, {"mode", o.mode}, {"sessions", o.sessions},
                      {"mutations", o.mutations}, {"drivers", o.drivers}, {"uris_per_driver", o.uris_per_driver},
                      {"window", o.window}, {"clients", o.clients},
                      {"seconds", r.seconds}, {"rate_per_s", rate},
                      {"delivered", r.delivered}, {"requests", r.requests}, {"lost", r.lost},
                      {"duplicated", r.duplicated}, {"out_of_order", r.out_of_order}, {"other_messages", r.other},
                      {"p50_us", r.latency.p50_us}, {"p99_us", r.latency.p99_us}, {"max_us", r.latency.max_us},
                      {"server_rss_kib_start", r.rss_start}, {"server_rss_kib_idle", r.rss_idle},
                      {"server_rss_kib_end", r.rss_end},
                      {"client_cpu_s", r.client_cpu},
                      {"client_cpu_share", r.seconds > 0 ? r.client_cpu / r.seconds : 0}, {"error", r.error}};
  if (o.mode == "fanout" && o.sessions > 0 && r.rss_start > 0)
    j["server_kib_per_idle_session"] = static_cast<double>(r.rss_idle - r.rss_start) / o.sessions;
  if (o.json) {
    std::cout << j.dump() << std::endl;
    return;
  }
  std::printf("%s %s: %.0f %s/s over %.2f s\n", o.label.c_str(), o.mode.c_str(), rate,
              o.mode == "requests" ? "requests" : "notifications", r.seconds);
  std::printf("  latency p50 %.0f us  p99 %.0f us  max %.0f us\n", r.latency.p50_us, r.latency.p99_us, r.latency.max_us);
  if (o.mode == "fanout")
    std::printf("  delivered %llu  lost %llu  duplicated %llu  out-of-order %llu  (other messages %llu)\n",
                (unsigned long long)r.delivered, (unsigned long long)r.lost, (unsigned long long)r.duplicated,
                (unsigned long long)r.out_of_order, (unsigned long long)r.other);
  std::printf("  server RSS KiB: start %ld  idle %ld  end %ld\n", r.rss_start, r.rss_idle, r.rss_end);
  std::printf("  load client CPU %.2f s (%.0f%% of one core)\n", r.client_cpu,
              r.seconds > 0 ? 100 * r.client_cpu / r.seconds : 0);
  if (!r.error.empty())
    std::printf("  error: %s\n", r.error.c_str());
}

} // namespace
} // namespace cafmcp::load

int main(int argc, char** argv) {
  using namespace cafmcp::load;
  options o;
  CLI::App app{"cafmcp-load: fan-out and request-rate load for MCP servers over Streamable HTTP"};
  app.add_option("--mode", o.mode, "fanout | requests")->check(CLI::IsMember({"fanout", "requests"}));
  app.add_option("--url", o.url, "server endpoint, http://HOST:PORT/mcp");
  app.add_flag("--stdio", o.stdio, "run --server over its stdin/stdout (one session: -k 1)");
  app.add_option("--server", o.server, "command starting the server (it prints its URL on stderr)");
  app.add_option("--server-pid", o.server_pid, "pid whose RSS to report (with --url)");
  app.add_option("--sessions,-k", o.sessions, "subscribed sessions (fanout)")->check(CLI::NonNegativeNumber);
  app.add_option("--mutations,-m", o.mutations, "update_resource calls in all")->check(CLI::NonNegativeNumber);
  app.add_option("--drivers,-w", o.drivers, "concurrent mutation drivers")->check(CLI::PositiveNumber);
  app.add_option("--uris,-u", o.uris_per_driver, "uris per driver (>1 lets a session detect loss in order)")
      ->check(CLI::PositiveNumber);
  app.add_option("--window", o.window, "mutations per driver not yet delivered everywhere (1 = one at a time)")
      ->check(CLI::PositiveNumber);
  app.add_option("--clients,-c", o.clients, "concurrent clients (requests)")->check(CLI::PositiveNumber);
  app.add_option("--duration", o.duration, "seconds (requests)");
  app.add_option("--setup-parallel", o.setup_parallel, "sessions opened at once")->check(CLI::PositiveNumber);
  app.add_option("--timeout", o.timeout, "seconds without progress before giving up")->check(CLI::PositiveNumber);
  app.add_option("--label", o.label, "name printed with the result");
  app.add_flag("--json", o.json, "one JSON line");
  app.add_flag("--trace", o.trace, "print every event received (debugging)");
  CLI11_PARSE(app, argc, argv);
  if (o.url.empty() == o.server.empty() && !o.stdio) {
    std::cerr << "give exactly one of --url and --server\n";
    return 2;
  }
  // Thousands of sessions need thousands of sockets, here and in the server
  // (which inherits the limit).
  rlimit files{};
  ::getrlimit(RLIMIT_NOFILE, &files);
  files.rlim_cur = files.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &files);
  try {
    if (o.stdio && (o.server.empty() || (o.mode == "fanout" && o.sessions != 1)))
      throw std::runtime_error("--stdio needs --server and carries one session (-k 1)");
    std::optional<server_process> proc;
    pid_t pid = static_cast<pid_t>(o.server_pid);
    net::io_context io(1);
    connector conn;
    endpoint ep;
    if (o.stdio) {
      proc.emplace(o.server, server_process::stdio_tag{});
      int to_server = -1, from_server = -1;
      proc->take_stdio(to_server, from_server);
      conn.stdio = std::make_shared<stdio_session>(io.get_executor(), to_server, from_server);
      pid = proc->pid();
    } else {
      if (!o.server.empty()) {
        proc.emplace(o.server, std::chrono::seconds(30));
        o.url = proc->url();
        pid = proc->pid();
      }
      ep = endpoint::parse(o.url);
      conn.ep = &ep;
    }
    result r;
    std::exception_ptr failure;
    std::unique_ptr<fanout> f;
    if (o.mode == "fanout")
      f = std::make_unique<fanout>(io, conn, o, pid);
    net::co_spawn(io, [&]() -> task<void> {
      if (conn.stdio)
        co_await conn.stdio->open("cafmcp-load");
      if (f)
        co_await f->run(r);
      else
        co_await request_rate(conn, o, pid, r);
    }, [&](std::exception_ptr e) {
      failure = e;
      conn.finish(); // a failed run must not leave the stdio reader waiting
    });
    io.run();
    if (failure)
      std::rethrow_exception(failure);
    report(o, r);
    bool clean = r.error.empty() && r.lost == 0 && r.duplicated == 0 && r.out_of_order == 0;
    return clean ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "cafmcp-load: " << e.what() << "\n";
    return 2;
  }
}

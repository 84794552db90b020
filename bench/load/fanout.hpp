#pragma once
// The fan-out run: K subscribed sessions (a GET stream each over HTTP, the
// session's own output over stdio), W drivers calling update_resource, and
// every resources/updated checked against what was sent (see main.cpp).
#include <chrono>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "connector.hpp"
#include "load_run.hpp"
#include "signal.hpp"

namespace cafmcp::load {

class fanout {
  using clock_type = std::chrono::steady_clock;

public:
  fanout(net::io_context& io, connector& conn, const options& o, pid_t pid)
    : io_(io), conn_(conn), o_(o), pid_(pid), done_signal_(io.get_executor()), poller_(io.get_executor()) {
    for (int w = 0; w < o.drivers; ++w) {
      driver d{io.get_executor()};
      d.total = o.mutations / o.drivers + (w < o.mutations % o.drivers ? 1 : 0);
      d.sent_at.resize(static_cast<std::size_t>(d.total));
      if (!o.round_times.empty())
        d.times.resize(static_cast<std::size_t>(d.total));
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
    // A server that is not there, or refuses, ends the run here: the
    // poller's wait would keep the event loop, and the client, running.
    std::shared_ptr<rpc_session> admin;
    std::exception_ptr refused;
    try {
      admin = co_await conn_.open("cafmcp-load-admin");
      for (auto& d : drivers_)
        for (auto& uri : d.uris) {
          auto args = resource_args(uri);
          check_tool(co_await admin->call_tool("add_resource", std::move(args)));
        }
    } catch (...) {
      refused = std::current_exception();
    }
    if (refused) {
      poller_.close();
      if (admin)
        conn_.done_with(*admin);
      conn_.finish();
      std::rethrow_exception(refused);
    }
    r.rss_start = server_rss(pid_);
    // Sessions, a few at a time.
    subscribers_.resize(static_cast<std::size_t>(o_.sessions));
    int next = 0;
    signal setup_done(ex);
    std::string setup_error;
    // Every opener has ended before this frame may: they use its locals.
    // (Leaving at the first error while the others still ran was a
    // use-after-free: a server refusing connections crashed the client.)
    int openers = std::min(o_.setup_parallel, o_.sessions);
    for (int p = 0, n = openers; p < n; ++p)
      net::co_spawn(
        ex,
        [&]() -> task<void> {
          while (next < o_.sessions && setup_error.empty()) {
            int k = next++;
            try {
              co_await open_subscriber(k);
            } catch (const std::exception& e) {
              if (setup_error.empty())
                setup_error = "session " + std::to_string(k) + ": " + e.what();
            }
          }
          --openers;
          setup_done.notify();
        },
        net::detached);
    while (openers > 0)
      co_await setup_done.wait_until(clock_type::time_point::max());
    if (!setup_error.empty()) {
      // The streams opened so far (and the poller's wait) would keep the
      // event loop, and with it the client, running for ever.
      close_all(*admin);
      throw std::runtime_error(setup_error);
    }
    r.rss_idle = server_rss(pid_);
    // Drive.
    auto cpu0 = cpu_seconds();
    auto server_cpu0 = server_cpu(pid_);
    auto t0 = clock_type::now();
    int running = static_cast<int>(drivers_.size());
    std::string drive_error;
    for (std::size_t w = 0; w < drivers_.size(); ++w)
      net::co_spawn(
        ex,
        [&, w]() -> task<void> {
          try {
            co_await drive(w);
          } catch (const std::exception& e) {
            drive_error = e.what();
          }
          --running;
          done_signal_.notify();
        },
        net::detached);
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
    r.server_cpu = server_cpu(pid_) - server_cpu0;
    r.seconds = std::chrono::duration<double>(t1 - t0).count();
    r.rss_end = server_rss(pid_);
    stopping_ = true;
    for (auto& d : drivers_)
      d.wake.notify();
    while (running > 0)
      co_await done_signal_.wait_until(clock_type::time_point::max());
    if (!drive_error.empty())
      r.error = drive_error; // the cause, rather than the stall it led to
    close_all(*admin);
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
    if (!o_.round_times.empty())
      write_round_times();
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
    // --round-times: per mutation, when its first and last delivery and its
    // answer came (a round's shape: how long before anything is written,
    // how long the writes take, which rounds are slow)
    struct round_time {
      clock_type::time_point first, last, answered;
    };
    std::vector<round_time> times;
    signal wake;
  };
  struct subscriber {
    explicit subscriber(std::size_t drivers) : received(drivers, 0) {}
    std::unique_ptr<sse_stream> stream; // HTTP; over stdio the session's own output
    std::vector<int> received;          // per driver
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

  void close_all(rpc_session& admin) {
    for (auto& s : subscribers_)
      if (s && s->stream)
        s->stream->close();
    poller_.close(); // its wait would keep the event loop running
    conn_.done_with(admin);
    conn_.finish();
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
      net::co_spawn(ex,
                    raw->stream->run([this, raw](std::string_view data) { on_event(*raw, data); }, &poller_),
                    net::detached);
    }
    for (auto& d : drivers_)
      for (auto& uri : d.uris) {
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
      if (!d.times.empty())
        d.times[static_cast<std::size_t>(n)].answered = clock_type::now();
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
      std::chrono::duration_cast<std::chrono::microseconds>(now - d.sent_at[static_cast<std::size_t>(got)])
        .count()));
    ++delivered_;
    reached(d, got++);
  }

  void reached(driver& d, int n) {
    auto at = static_cast<std::size_t>(n);
    if (!d.times.empty()) {
      if (d.delivered[at] == 0)
        d.times[at].first = clock_type::now();
      if (d.delivered[at] + 1 == o_.sessions)
        d.times[at].last = clock_type::now();
    }
    if (++d.delivered[at] < o_.sessions || n != d.complete)
      return;
    while (d.complete < d.total && d.delivered[static_cast<std::size_t>(d.complete)] >= o_.sessions)
      ++d.complete;
    d.wake.notify();
    done_signal_.notify();
  }

  // "driver mutation first_us last_us answer_us", a line per mutation sent
  // (-1: it never came).
  void write_round_times() const {
    std::FILE* f = std::fopen(o_.round_times.c_str(), "w");
    if (!f)
      throw std::runtime_error("cannot write " + o_.round_times);
    auto us = [](clock_type::time_point from, clock_type::time_point to) -> long long {
      if (to == clock_type::time_point{})
        return -1;
      return std::chrono::duration_cast<std::chrono::microseconds>(to - from).count();
    };
    for (std::size_t w = 0; w < drivers_.size(); ++w) {
      auto& d = drivers_[w];
      for (int n = 0; n < d.sent; ++n) {
        auto& t = d.times[static_cast<std::size_t>(n)];
        auto sent = d.sent_at[static_cast<std::size_t>(n)];
        std::fprintf(f, "%zu %d %lld %lld %lld\n", w, n, us(sent, t.first), us(sent, t.last),
                     us(sent, t.answered));
      }
    }
    std::fclose(f);
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
  sse_poller poller_; // every GET stream's socket, read in one place
};

} // namespace cafmcp::load

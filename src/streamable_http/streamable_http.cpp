#include "cafmcp/streamable_http.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <future>
#include <optional>
#include <thread>

#include <pthread.h>

#include "cafmcp/auth_verifiers.hpp"
#include "cafmcp/startup_error.hpp"

#include "streamable_http/http_conn.hpp"
#include "streamable_http/request_router.hpp"
#include "streamable_http/tls_terminator.hpp"

namespace cafmcp {

using namespace cafmcp::http;

namespace http {

/// What every loop of one transport counts together.
struct transport_counters {
  connection_counters connections;
  session_counters sessions;
};

namespace {
// Named in ps, top and perf: "cafmcp-http-N" (at most 15 characters).
void name_this_thread(const std::string& name) { pthread_setname_np(pthread_self(), name.substr(0, 15).c_str()); }
} // namespace

// One event loop: its connections' io, the router of its requests and
// owner of its sessions, its keep-alive ticker, its thread. The router is
// declared after the io it serves: it is destroyed first.
struct event_loop {
  event_loop(server& srv, const http_options& o, transport_counters& c, verification_pool* verifications)
    : io({o.max_body_bytes, o.max_header_bytes, o.max_unread_bytes, o.max_connections,
          o.request_header_timeout, o.request_body_timeout},
         c.connections, &http_conn::start_due_write, &http_conn::send_collected, o.batched_writes),
      router(srv, o, c.sessions, io, verifications), ticker(io.ioc), shutdown_poll(io.ioc) {}
  connection_loop io;
  request_router router;
  net::steady_timer ticker;
  net::steady_timer shutdown_poll;
  // The loop runs until stop() stops it, even with nothing to wait for
  // (a shutdown that closed every connection still hands it work).
  net::executor_work_guard<net::io_context::executor_type> keep_running{io.ioc.get_executor()};
  std::thread thread;

  // Shutdown only: settles `done` once `ready()` holds on this loop. It
  // looks again every few milliseconds, which costs nothing while the
  // transport serves (the caller bounds the wait).
  void settle_when(std::function<bool()> ready, std::shared_ptr<std::promise<void>> done) {
    if (ready())
      return done->set_value();
    shutdown_poll.expires_after(std::chrono::milliseconds(5));
    shutdown_poll.async_wait([this, ready = std::move(ready), done = std::move(done)](beast::error_code ec) {
      if (!ec)
        settle_when(ready, done);
    });
  }

  // Keep-alive comments on quiet streams, and the end of sessions whose
  // client is gone.
  void tick() {
    auto& options = router.options();
    auto period = std::min(options.keep_alive_interval,
                           std::max(std::chrono::milliseconds(50), options.session_idle_timeout / 4));
    ticker.expires_after(period);
    ticker.async_wait([this, &options](beast::error_code ec) {
      if (ec)
        return;
      auto now = std::chrono::steady_clock::now();
      std::vector<std::shared_ptr<http_session>> idle;
      for (auto& [id, s] : router.sessions()) {
        s->keep_alive(now - options.keep_alive_interval);
        s->expire(now - options.stream_history_age);
        if (s->idle_since(now - options.session_idle_timeout))
          idle.push_back(s);
      }
      for (auto& s : idle)
        s->end();
      tick();
    });
  }

  template <class F>
  auto on_loop(F f) -> decltype(f()) {
    std::packaged_task<decltype(f())()> task(std::move(f));
    auto result = task.get_future();
    net::post(io.ioc, [&task] { task(); });
    return result.get();
  }
};

} // namespace http

namespace {

// The static token (an option, or CAFMCP_HTTP_TOKEN) is the simplest
// verifier: one path for every kind of token.
void resolve_verifier(http_options& o) {
  if (o.token_verifier)
    return;
  if (!o.bearer_token)
    if (const char* env = std::getenv("CAFMCP_HTTP_TOKEN"); env && *env)
      o.bearer_token = env;
  if (o.bearer_token)
    o.token_verifier = auth::static_token_verifier(*o.bearer_token);
}

} // namespace

struct streamable_http::impl {
  server& srv;
  impl(server& srv, http_options o) : srv(srv) {
    o.event_loops = std::clamp<std::size_t>(o.event_loops, 1, 16); // a session id's last hex digit
    resolve_verifier(o);
    if (o.token_verifier)
      verifications =
        std::make_unique<verification_pool>(o.token_verifier, o.auth_threads, o.max_pending_verifications);
    for (std::size_t i = 0; i < o.event_loops; ++i)
      loops.push_back(std::make_unique<event_loop>(srv, o, counters, verifications.get()));
    std::vector<connection_loop*> all;
    for (auto& l : loops)
      all.push_back(&l->io);
    for (std::size_t i = 0; i < loops.size(); ++i)
      loops[i]->router.join(all, i);
    acceptor.emplace(loops[0]->io.ioc);
  }

  // The first loop goes first: its pending accept holds a socket bound to
  // another loop's io_context, which must outlive it.
  ~impl() {
    if (verifications) // its threads post to the loops (stopped by stop() already when they ran)
      verifications->stop();
    acceptor.reset();
    for (auto& l : loops)
      l.reset();
  }

  transport_counters counters;              // declared first: outlives the loops
  std::vector<metric_observation> observed; // reads `counters`: unregistered before they go
  std::optional<net::ssl::context> tls;     // HTTPS; outlives the loops' connections
  // Token verifications (with a verifier); stopped before the loops go.
  std::unique_ptr<verification_pool> verifications;
  std::vector<std::unique_ptr<event_loop>> loops;
  std::optional<tcp::acceptor> acceptor; // on the first loop
  std::size_t next_loop = 0;
  std::uint16_t bound_port = 0;
  bool running = false;
  bool stopped = false; // stop() destroyed the loops

  // The transport's own numbers, read when the server's metrics are
  // collected (a scrape, an OTLP export): plain loads of the counters above.
  void observe(metrics_registry& r) {
    auto gauge = [&](const char* name, const char* unit, const char* description,
                     const std::atomic<std::size_t>& value, metric_kind kind = metric_kind::up_down_counter) {
      observed.push_back(r.observe(name, unit, description, kind, [&value](metric_observer& o) {
        o.observe(static_cast<std::int64_t>(value.load(std::memory_order_relaxed)));
      }));
    };
    gauge("cafmcp.http.sessions", "{session}", "Streamable HTTP sessions", counters.sessions.sessions);
    gauge("cafmcp.http.stateless_requests", "{request}",
          "2026-07-28 requests in flight, open subscriptions/listen streams included",
          counters.sessions.stateless_requests);
    gauge("cafmcp.http.connections", "{connection}", "Open HTTP connections",
          counters.connections.open_connections);
    gauge("cafmcp.http.streams", "{stream}", "Open SSE streams", counters.connections.open_streams);
    gauge("cafmcp.http.outbound.queued", "By",
          "Bytes handed to connections and not yet written to their sockets (clients reading slowly)",
          counters.connections.queued_bytes);
    gauge("cafmcp.slow_consumers.dropped", "{connection}",
          "Connections dropped because their client left more than max_unread_bytes unread",
          counters.connections.dropped_slow, metric_kind::counter);
  }

  // Waits until `ready(loop)` holds on every loop, or until `until`.
  void wait_for_all(const std::function<bool(event_loop&)>& ready,
                    std::chrono::steady_clock::time_point until) {
    std::vector<std::future<void>> settled;
    for (auto& l : loops)
      settled.push_back(l->on_loop([&l = *l, &ready] {
        auto done = std::make_shared<std::promise<void>>();
        auto f = done->get_future();
        l.settle_when([&l, ready] { return ready(l); }, std::move(done));
        return f;
      }));
    for (auto& f : settled)
      f.wait_until(until);
  }

  // Connections take turns over the loops; a connection whose first
  // request belongs to a session elsewhere moves there (http_conn::move_to).
  void accept() {
    auto& to = loops[next_loop]->io;
    next_loop = (next_loop + 1) % loops.size();
    acceptor->async_accept(to.ioc, [this, &to](beast::error_code ec, loop_socket socket) {
      if (ec)
        return; // closed by stop()
      auto serve = [&to, ctx = tls ? &*tls : nullptr](loop_socket socket) {
        if (ctx)
          serve_tls(std::move(socket), *ctx, to);
        else
          std::make_shared<http_conn>(std::move(socket), to)->start();
      };
      if (&to == &loops[0]->io)
        serve(std::move(socket));
      else
        net::post(to.ioc, [serve, socket = std::move(socket)]() mutable { serve(std::move(socket)); });
      accept();
    });
  }
};

streamable_http::streamable_http(server& srv, http_options options)
  : impl_(std::make_unique<impl>(srv, std::move(options))) {}

streamable_http::~streamable_http() { stop(); }

void streamable_http::start() {
  auto& d = *impl_;
  if (d.stopped)
    throw startup_error("this transport was stopped; a new one can serve again");
  auto& options = d.loops[0]->router.options();
  auto& metrics = d.loops[0]->router.core().options().metrics;
  if (!options.metrics_path.empty() && !metrics)
    throw startup_error("metrics_path " + options.metrics_path
                        + " is set, but the server keeps no metrics (server_options::metrics)");
  if (metrics && d.observed.empty())
    d.observe(*metrics);
  beast::error_code ec;
  auto address = net::ip::make_address(options.host == "localhost" ? "127.0.0.1" : options.host, ec);
  if (ec)
    throw startup_error("cannot listen on " + options.host + ": not an IP address (give one, or localhost)");
  tcp::endpoint ep(address, options.port);
  if (options.tls_certificate_file.has_value() != options.tls_private_key_file.has_value())
    throw startup_error("HTTPS needs both a certificate file and a private key file");
  if (options.tls_certificate_file && !d.tls) {
    try {
      d.tls.emplace(make_server_tls_context(*options.tls_certificate_file, *options.tls_private_key_file));
    } catch (const std::runtime_error& e) {
      throw startup_error(e.what());
    }
  }
  auto where =
    (address.is_v6() ? "[" + options.host + "]" : options.host) + ":" + std::to_string(options.port);
  auto fail = [&](const char* step) {
    if (ec) {
      auto why = ec.message();
      d.acceptor->close(ec);
      throw startup_error("cannot listen on " + where + ": " + step + ": " + why);
    }
  };
  d.acceptor->open(ep.protocol(), ec);
  fail("socket");
  d.acceptor->set_option(net::socket_base::reuse_address(true), ec);
  fail("SO_REUSEADDR");
  d.acceptor->bind(ep, ec);
  fail("bind");
  d.acceptor->listen(net::socket_base::max_listen_connections, ec);
  fail("listen");
  d.bound_port = d.acceptor->local_endpoint(ec).port();
  fail("getsockname");
  for (auto& l : d.loops)
    l->router.set_policy(request_policy::from(l->router.options(), d.bound_port));
  d.accept();
  for (auto& l : d.loops)
    l->tick();
  d.running = true;
  std::size_t index = 0;
  for (auto& l : d.loops)
    l->thread = std::thread([&l = *l, &srv = d.srv, n = index++] {
      name_this_thread("cafmcp-http-" + std::to_string(n));
      auto here = l.router.options().actors_on_event_loops
                    ? srv.run_actors_here([&l](std::function<void()> fn) { net::post(l.io.ioc, std::move(fn)); },
                                          server::post_from::any_thread)
                    : nullptr;
      l.io.ioc.run();
    });
}

std::uint16_t streamable_http::port() const { return impl_->bound_port; }

void streamable_http::stop() {
  auto& d = *impl_;
  if (!d.running)
    return;
  d.running = false;
  const auto& options = d.loops[0]->router.options();
  auto grace_ends = std::chrono::steady_clock::now() + options.shutdown_grace;
  d.loops[0]->on_loop([&d] {
    beast::error_code ec;
    d.acceptor->close(ec);
    return 0;
  });
  // Requests in flight are answered while the grace lasts; listen streams
  // end with their completion result at once.
  for (auto& l : d.loops)
    l->on_loop([&l = *l] {
      l.router.drain();
      return 0;
    });
  d.wait_for_all([](event_loop& l) { return l.router.drained(); }, grace_ends);
  // What is still unanswered gets its error, not a silent close.
  for (auto& l : d.loops)
    l->on_loop([&l = *l] {
      l.ticker.cancel();
      l.router.end_all(503, "Server shutting down; this request was not answered in time");
      return 0;
    });
  // Every answer written before the sockets close (bounded: a client that
  // does not read loses its connection).
  d.wait_for_all([](event_loop& l) { return l.io.unwritten == 0; },
                 std::chrono::steady_clock::now() + options.shutdown_flush_timeout);
  for (auto& l : d.loops)
    l->io.ioc.stop();
  for (auto& l : d.loops)
    if (l->thread.joinable())
      l->thread.join();
  // With no loop running: a verification still waiting holds its request's
  // connection, which may only be let go of where no loop thread touches it.
  // What a verification thread posts from now on is never run.
  if (d.verifications)
    d.verifications->stop();
  // A stopped io_context still holds its pending handlers, and they the
  // connections: a GET stream or a POST whose call was in flight stayed
  // open until the transport was destroyed. Destroying the loops now (as
  // ~impl would: the acceptor first) closes every socket before stop()
  // returns.
  d.acceptor.reset();
  for (auto& l : d.loops)
    l.reset();
  d.stopped = true;
}

int streamable_http::run() {
  if (!impl_->running)
    start();
  net::io_context signals_ctx;
  net::signal_set signals(signals_ctx, SIGINT, SIGTERM);
  signals.async_wait([](beast::error_code, int) {});
  signals_ctx.run(); // returns once a signal arrived
  // A second signal while stop() waits out the grace: the operator asked
  // twice, so the process ends now, saying what it leaves unanswered (exit
  // 128 + the signal, as a shell reports a process killed by it).
  signals_ctx.restart();
  signals.async_wait([](beast::error_code ec, int sig) {
    if (ec)
      return; // cancelled: stop() finished first
    std::fprintf(stderr, "cafmcp: second signal during shutdown: exiting now; requests in flight get no answer\n");
    std::_Exit(128 + sig);
  });
  std::thread second([&signals_ctx] { signals_ctx.run(); });
  stop();
  net::post(signals_ctx, [&signals] { signals.cancel(); });
  second.join();
  return 0;
}

http_stats streamable_http::stats() const {
  auto& c = impl_->counters;
  return http_stats{c.sessions.sessions.load(), c.connections.open_connections.load(),
                    c.connections.open_streams.load(), c.connections.dropped_slow.load()};
}

} // namespace cafmcp

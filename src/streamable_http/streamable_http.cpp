#include "cafmcp/streamable_http.hpp"

#include <future>
#include <thread>

#include "streamable_http/http_session.hpp"
#include "streamable_http/transport_state.hpp"

namespace cafmcp {

using namespace cafmcp::http;

struct streamable_http::impl {
  impl(server& srv, http_options o) : st(srv, std::move(o)), acceptor(st.ioc), ticker(st.ioc) {}

  transport_state st;
  tcp::acceptor acceptor;
  net::steady_timer ticker;
  std::thread loop;
  std::uint16_t bound_port = 0;
  bool running = false;

  void accept() {
    acceptor.async_accept([this](beast::error_code ec, tcp::socket socket) {
      if (ec)
        return; // closed by stop()
      std::make_shared<http_conn>(std::move(socket), st)->start();
      accept();
    });
  }

  // Keep-alive comments on quiet streams, and the end of sessions whose
  // client is gone.
  void tick() {
    auto period = std::min(st.options.keep_alive_interval,
                           std::max(std::chrono::milliseconds(50), st.options.session_idle_timeout / 4));
    ticker.expires_after(period);
    ticker.async_wait([this](beast::error_code ec) {
      if (ec)
        return;
      auto now = std::chrono::steady_clock::now();
      std::vector<std::shared_ptr<http_session>> idle;
      for (auto& [id, s] : st.sessions) {
        s->keep_alive(now - st.options.keep_alive_interval);
        s->expire(now - st.options.stream_history_age);
        if (s->idle_since(now - st.options.session_idle_timeout))
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
    net::post(st.ioc, [&task] { task(); });
    return result.get();
  }
};

streamable_http::streamable_http(server& srv, http_options options)
  : impl_(std::make_unique<impl>(srv, std::move(options))) {}

streamable_http::~streamable_http() { stop(); }

void streamable_http::start() {
  auto& d = *impl_;
  auto address = net::ip::make_address(d.st.options.host == "localhost" ? "127.0.0.1" : d.st.options.host);
  tcp::endpoint ep(address, d.st.options.port);
  d.acceptor.open(ep.protocol());
  d.acceptor.set_option(net::socket_base::reuse_address(true));
  d.acceptor.bind(ep);
  d.acceptor.listen(net::socket_base::max_listen_connections);
  d.bound_port = d.acceptor.local_endpoint().port();
  d.st.policy = request_policy::from(d.st.options, d.bound_port);
  d.accept();
  d.tick();
  d.running = true;
  d.loop = std::thread([&d] { d.st.ioc.run(); });
}

std::uint16_t streamable_http::port() const { return impl_->bound_port; }

void streamable_http::stop() {
  auto& d = *impl_;
  if (!d.running)
    return;
  d.running = false;
  d.on_loop([&d] {
    beast::error_code ec;
    d.acceptor.close(ec);
    d.ticker.cancel();
    auto sessions = d.st.sessions; // end() removes itself from the map
    for (auto& [id, s] : sessions)
      s->end();
    return 0;
  });
  d.st.ioc.stop();
  if (d.loop.joinable())
    d.loop.join();
}

int streamable_http::run() {
  if (!impl_->running)
    start();
  net::io_context signals_ctx;
  net::signal_set signals(signals_ctx, SIGINT, SIGTERM);
  signals.async_wait([](beast::error_code, int) {});
  signals_ctx.run(); // returns once a signal arrived
  stop();
  return 0;
}

http_stats streamable_http::stats() const {
  auto& st = impl_->st;
  return http_stats{st.session_count.load(), st.open_connections.load(), st.open_streams.load(),
                    st.dropped_slow.load()};
}

} // namespace cafmcp

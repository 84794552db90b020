#include "streamable_http/tls_terminator.hpp"

#include <array>
#include <memory>
#include <stdexcept>

#include <boost/asio/local/stream_protocol.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/ssl.hpp>
#include <sys/socket.h>
#include <unistd.h>

#include "streamable_http/http_conn.hpp"

namespace cafmcp::http {
namespace {

namespace ssl = net::ssl;
using error_code = beast::error_code;

/// A client that opens a connection and never completes the handshake
/// holds nothing for longer than this.
constexpr std::chrono::seconds handshake_timeout{10};
/// After the last response byte, how long the peer may take to answer our
/// close_notify before the socket just closes.
constexpr std::chrono::seconds shutdown_timeout{2};
/// A client that takes none of a write's bytes for this long is gone. The
/// plain path's own bound (max_unread_bytes) still applies behind the
/// bridge, but once the http_conn has dropped a client for it, a write
/// stuck here would hold the connection open: this ends it.
constexpr std::chrono::seconds stalled_write_timeout{30};

// Two pumps, each one read then one write at a time (the buffers give
// back-pressure both ways): TLS -> plain carries requests to the http_conn,
// plain -> TLS carries its responses and streams out.
class tls_bridge : public std::enable_shared_from_this<tls_bridge> {
public:
  tls_bridge(tcp::socket socket, ssl::context& ctx, connection_loop& loop)
    : tls_(std::move(socket), ctx), plain_(loop.ioc), loop_(loop), write_timer_(loop.ioc) {}

  void start() {
    beast::get_lowest_layer(tls_).expires_after(handshake_timeout);
    tls_.async_handshake(ssl::stream_base::server, [self = shared_from_this()](error_code ec) {
      if (ec)
        return self->close_tls(); // not TLS, an unknown CA on the client's side, too slow
      beast::get_lowest_layer(self->tls_).expires_never();
      self->bridge();
    });
  }

private:
  void bridge() {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
      return close_tls();
    error_code ec;
    plain_.assign(net::local::stream_protocol(), fds[0], ec);
    if (ec) {
      ::close(fds[0]);
      ::close(fds[1]);
      return close_tls();
    }
    // The http_conn takes the other end as if it were the TCP socket: Asio
    // adopts any stream fd; TCP_NODELAY on it fails (ignored), and moving it
    // to another loop (http_conn::move_to) hands over the fd as it would a
    // TCP one.
    loop_socket conn_side(loop_.ioc);
    conn_side.assign(tcp::v4(), fds[1], ec);
    if (ec) {
      ::close(fds[1]);
      return close_tls();
    }
    std::make_shared<http_conn>(std::move(conn_side), loop_)->start();
    read_tls();
    read_plain();
  }

  void read_tls() {
    tls_reading_ = true;
    tls_.async_read_some(net::buffer(in_), [self = shared_from_this()](error_code ec, std::size_t n) {
      self->tls_reading_ = false;
      if (self->closing_)
        return self->shutdown_tls(); // read_plain cancelled this read to say goodbye
      if (ec) {
        // The client is done (or gone): the http_conn sees the end of its
        // input, answers what it has, and closes its side, which ends us.
        error_code ignored;
        self->plain_.shutdown(net::socket_base::shutdown_send, ignored);
        return;
      }
      net::async_write(self->plain_, net::buffer(self->in_.data(), n), [self](error_code ec, std::size_t) {
        if (!ec)
          self->read_tls();
      });
    });
  }

  void read_plain() {
    plain_.async_read_some(net::buffer(out_), [self = shared_from_this()](error_code ec, std::size_t n) {
      if (ec) // the http_conn closed its side, all of it read and sent
        return self->begin_shutdown();
      self->write_timer_.expires_after(stalled_write_timeout);
      self->write_timer_.async_wait([weak = std::weak_ptr<tls_bridge>(self)](error_code ec) {
        if (auto self = weak.lock(); self && !ec)
          self->close_tls(); // the write fails, and the code below cleans up
      });
      net::async_write(self->tls_, net::buffer(self->out_.data(), n), [self](error_code ec, std::size_t) {
        self->write_timer_.cancel();
        if (ec) { // the client is gone: tell the http_conn at once
          error_code ignored;
          self->plain_.close(ignored);
          return self->close_tls();
        }
        self->read_plain();
      });
    });
  }

  // TLS lets only one read be pending: a read still waiting for the client
  // is cancelled first, and its handler sends the close_notify.
  void begin_shutdown() {
    closing_ = true;
    error_code ignored;
    plain_.close(ignored);
    if (tls_reading_)
      beast::get_lowest_layer(tls_).socket().cancel(ignored);
    else
      shutdown_tls();
  }

  void shutdown_tls() {
    if (shut_)
      return;
    shut_ = true;
    beast::get_lowest_layer(tls_).expires_after(shutdown_timeout);
    tls_.async_shutdown([self = shared_from_this()](error_code) { self->close_tls(); });
  }

  void close_tls() {
    error_code ignored;
    auto& socket = beast::get_lowest_layer(tls_).socket();
    socket.shutdown(tcp::socket::shutdown_both, ignored);
    socket.close(ignored);
  }

  beast::ssl_stream<beast::tcp_stream> tls_;
  net::local::stream_protocol::socket plain_;
  connection_loop& loop_;
  std::array<char, 16 * 1024> in_; // one TLS record at most
  std::array<char, 16 * 1024> out_;
  net::steady_timer write_timer_;
  bool tls_reading_ = false;
  bool closing_ = false;
  bool shut_ = false;
};

} // namespace

ssl::context make_server_tls_context(const std::string& certificate_file,
                                     const std::string& private_key_file) {
  ssl::context ctx(ssl::context::tls_server);
  ctx.set_options(ssl::context::default_workarounds | ssl::context::no_sslv2 | ssl::context::no_sslv3
                  | ssl::context::no_tlsv1 | ssl::context::no_tlsv1_1 | ssl::context::single_dh_use);
  error_code ec;
  ctx.use_certificate_chain_file(certificate_file, ec);
  if (ec)
    throw std::runtime_error("cannot use TLS certificate " + certificate_file + ": " + ec.message());
  ctx.use_private_key_file(private_key_file, ssl::context::pem, ec);
  if (ec)
    throw std::runtime_error("cannot use TLS private key " + private_key_file + ": " + ec.message());
  return ctx;
}

void serve_tls(tcp::socket socket, ssl::context& ctx, connection_loop& loop) {
  std::make_shared<tls_bridge>(std::move(socket), ctx, loop)->start();
}

} // namespace cafmcp::http

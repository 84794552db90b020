#pragma once
// Reads many SSE streams the way floor (b)'s reader does: one epoll set of
// their sockets (edge-triggered), watched by the event loop as a single
// descriptor. When it turns readable, every ready socket is read until a
// short read, so each arrival costs one recv(2): no per-socket
// asynchronous operation, and no read that finds nothing (asio's
// speculative read per operation did: half of all recv calls, measured
// with strace). The load client must stay cheap, or it measures itself.
#include <cerrno>
#include <functional>
#include <unordered_map>

#include <boost/asio/posix/stream_descriptor.hpp>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace cafmcp::load {

class sse_poller {
public:
  using on_bytes = std::function<void(const char* data, std::size_t size)>;

  explicit sse_poller(boost::asio::any_io_executor ex) : watch_(ex, ::epoll_create1(EPOLL_CLOEXEC)) {
    wait();
  }
  ~sse_poller() { close(); }

  /// Closes every stream and stops watching: the event loop can end.
  void close() {
    for (auto& [fd, cb] : streams_)
      ::close(fd);
    streams_.clear();
    boost::system::error_code ec;
    watch_.close(ec);
  }

  /// Takes the socket over for `owner` (it is closed by remove() or at
  /// destruction).
  void add(int fd, const void* owner, on_bytes cb) {
    streams_[fd] = {owner, std::move(cb)};
    epoll_event ev{};
    ev.events = EPOLLIN | EPOLLRDHUP | EPOLLET;
    ev.data.fd = fd;
    ::epoll_ctl(watch_.native_handle(), EPOLL_CTL_ADD, fd, &ev);
    drain(fd); // what arrived before it was added raises no edge
  }

  /// Closes `owner`'s socket, unless the stream ended and was closed here
  /// already: its number may belong to another stream by now (the kernel
  /// reuses it), whose socket must not be closed under it.
  void remove(int fd, const void* owner) {
    if (auto it = streams_.find(fd); it != streams_.end() && it->second.owner == owner)
      close_stream(it);
  }

private:
  void wait() {
    watch_.async_wait(boost::asio::posix::stream_descriptor::wait_read, [this](boost::system::error_code ec) {
      if (ec)
        return;
      poll();
      wait();
    });
  }

  void poll() {
    epoll_event evs[256];
    int n;
    do {
      n = ::epoll_wait(watch_.native_handle(), evs, 256, 0);
      for (int i = 0; i < n; ++i)
        drain(evs[i].data.fd);
    } while (n == 256);
  }

  // Until a short read: the socket is empty, and its next arrival raises a
  // new edge. The end of the stream (or an error) ends it.
  void drain(int fd) {
    for (;;) {
      auto it = streams_.find(fd);
      if (it == streams_.end())
        return;
      auto r = ::recv(fd, buf_, sizeof buf_, MSG_DONTWAIT);
      if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return;
      if (r < 0 && errno == EINTR)
        continue;
      if (r <= 0)
        return close_stream(it);
      it->second.cb(buf_, static_cast<std::size_t>(r));
      if (static_cast<std::size_t>(r) < sizeof buf_)
        return;
    }
  }

  struct stream {
    const void* owner;
    on_bytes cb;
  };

  void close_stream(std::unordered_map<int, stream>::iterator it) {
    ::close(it->first); // closing also takes it out of the epoll set
    streams_.erase(it);
  }

  boost::asio::posix::stream_descriptor watch_; // owns the epoll set
  std::unordered_map<int, stream> streams_;
  char buf_[16384];
};

} // namespace cafmcp::load

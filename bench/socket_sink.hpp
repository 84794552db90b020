#pragma once
// socketpairs for socket_outbound, drained by one epoll thread.
#include <atomic>
#include <thread>
#include <vector>

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "counting_outbound.hpp"

namespace cafmcp::bench {

inline bool socket_outbound::send(frame message, const routing&) {
  if (!message)
    return true;
  char nl = '\n';
  iovec parts[2] = {{const_cast<char*>(message->data()), message->size()}, {&nl, 1}};
  return ::writev(fd_, parts, 2) > 0;
}

class socket_sink {
public:
  explicit socket_sink(delivery_counter& c) : counter_(c), ep_(::epoll_create1(0)) {}
  ~socket_sink() {
    stop_ = true;
    if (thread_.joinable())
      thread_.join();
    for (auto fd : fds_)
      ::close(fd);
    ::close(ep_);
  }
  /// A connected pair: returns the end to write to.
  int add() {
    int sv[2];
    ::socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
    int big = 4 << 20;
    ::setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
    epoll_event ev{EPOLLIN, {.fd = sv[1]}};
    ::epoll_ctl(ep_, EPOLL_CTL_ADD, sv[1], &ev);
    fds_.push_back(sv[0]);
    fds_.push_back(sv[1]);
    return sv[0];
  }
  void start() {
    thread_ = std::thread([this] {
      std::vector<char> buf(1 << 16);
      epoll_event evs[64];
      while (!stop_) {
        int n = ::epoll_wait(ep_, evs, 64, 50);
        for (int i = 0; i < n; ++i) {
          auto r = ::read(evs[i].data.fd, buf.data(), buf.size());
          std::uint64_t lines = 0;
          for (ssize_t k = 0; k < r; ++k)
            lines += buf[k] == '\n';
          if (lines) {
            auto total = counter_.frames.fetch_add(lines) + lines;
            if (total >= counting_outbound::target_.load()) {
              std::lock_guard<std::mutex> g(counter_.mtx);
              counter_.cv.notify_all();
            }
          }
        }
      }
    });
  }

private:
  delivery_counter& counter_;
  int ep_;
  std::vector<int> fds_;
  std::thread thread_;
  std::atomic<bool> stop_{false};
};

} // namespace cafmcp::bench

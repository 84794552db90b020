// Floor (b): the same pre-serialized SSE frame (143 bytes, the size of a
// resources/updated event as cafmcp sends it) written to N loopback TCP
// sockets from one thread, one write(2) per frame; a second thread reads
// every client end (epoll) and counts bytes. Deliveries/s at this floor is
// what one syscall per delivery allows on this machine: the ceiling for a
// server that writes each notification on its own, and the figure that a
// server which batches writes per connection can beat.
//
// --one-at-a-time: the writer waits until the reader has every frame of a
// round before it starts the next, as a fan-out of one update at a time
// does, and each frame's latency (round start -> read) is recorded. Every
// socket then holds one frame per round, so every delivery pays a wake-up,
// a read and an ACK that the streaming floor shares among many frames. It
// is what a server with no work of its own (no request to read, no
// mutation, no routing) would reach one update at a time: the bound for
// that row's throughput and p99 latency.
//
//   sse-socket-floor [sockets=500] [rounds=200] [--one-at-a-time] [--json]
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "load/load_stats.hpp"

namespace {

using clock_type = std::chrono::steady_clock;

[[noreturn]] void die(const char* what) {
  std::perror(what);
  std::exit(2);
}

std::string sse_frame() {
  std::string data =
    R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"bench://load/d0/u0"}})";
  std::string f = "id: 1-123456\ndata: " + data + "\n\n";
  f.resize(143, ' '); // pad or trim to exactly 143 bytes; the tail stays "\n\n" below
  f[141] = '\n';
  f[142] = '\n';
  return f;
}

struct socket_pairs {
  std::vector<int> writers, readers;
  int epoll = -1;

  explicit socket_pairs(int n, bool delayed_acks) {
    int listener = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
        || ::listen(listener, 1024) != 0)
      die("listen");
    socklen_t len = sizeof addr;
    ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
    epoll = ::epoll_create1(0);
    for (int i = 0; i < n; ++i) {
      int c = ::socket(AF_INET, SOCK_STREAM, 0);
      if (::connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
        die("connect");
      int s = ::accept(listener, nullptr, nullptr);
      if (s < 0)
        die("accept");
      int one = 1, zero = 0;
      ::setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); // as an SSE server sets it
      if (delayed_acks)                                            // as cafmcp-load's GET streams ask
        ::setsockopt(c, IPPROTO_TCP, TCP_QUICKACK, &zero, sizeof zero);
      writers.push_back(s);
      readers.push_back(c);
      epoll_event ev{EPOLLIN, {.fd = c}};
      ::epoll_ctl(epoll, EPOLL_CTL_ADD, c, &ev);
    }
    ::close(listener);
  }
  ~socket_pairs() {
    for (int s : writers)
      ::close(s);
    for (int c : readers)
      ::close(c);
    ::close(epoll);
  }
};

void write_frame(int s, const std::string& frame) {
  // Blocking sockets: a full one waits for the reader, as a slow client would.
  if (::write(s, frame.data(), frame.size()) != static_cast<ssize_t>(frame.size()))
    die("write");
}

/// Rounds back to back: the writer never waits, the reader takes what has
/// arrived (many frames per read once it lags). Deliveries/s.
double streaming(socket_pairs& p, int rounds, const std::string& frame) {
  const auto expected = p.writers.size() * static_cast<std::uint64_t>(rounds) * frame.size();
  std::thread reader([&] {
    std::vector<char> buf(1 << 16);
    epoll_event evs[256];
    std::uint64_t got = 0;
    while (got < expected) {
      int k = ::epoll_wait(p.epoll, evs, 256, 1000);
      for (int i = 0; i < k; ++i)
        if (auto r = ::read(evs[i].data.fd, buf.data(), buf.size()); r > 0)
          got += static_cast<std::uint64_t>(r);
    }
  });
  auto t0 = clock_type::now();
  for (int r = 0; r < rounds; ++r)
    for (int s : p.writers)
      write_frame(s, frame);
  reader.join();
  double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
  return static_cast<double>(p.writers.size()) * rounds / secs;
}

/// A round starts when the reader has had every frame of the one before.
/// Deliveries/s, and each frame's latency from its round's start.
double one_at_a_time(socket_pairs& p, int rounds, const std::string& frame,
                     std::vector<std::uint32_t>& latencies) {
  const auto n = p.writers.size();
  int round_done = ::eventfd(0, EFD_CLOEXEC);
  std::atomic<clock_type::rep> round_start{0};
  latencies.reserve(n * static_cast<std::size_t>(rounds));
  std::thread reader([&] {
    std::vector<char> buf(1 << 16);
    epoll_event evs[256];
    std::size_t frames = 0;
    while (frames < n * static_cast<std::size_t>(rounds)) {
      int k = ::epoll_wait(p.epoll, evs, 256, 1000);
      for (int i = 0; i < k; ++i) {
        if (::read(evs[i].data.fd, buf.data(), buf.size()) <= 0)
          continue;
        // One frame per socket per round: a read is one delivery.
        auto since =
          clock_type::now().time_since_epoch().count() - round_start.load(std::memory_order_acquire);
        latencies.push_back(static_cast<std::uint32_t>(
          std::chrono::duration_cast<std::chrono::microseconds>(clock_type::duration(since)).count()));
        if (++frames % n == 0) {
          std::uint64_t one = 1;
          if (::write(round_done, &one, sizeof one) != sizeof one)
            die("eventfd");
        }
      }
    }
  });
  auto t0 = clock_type::now();
  for (int r = 0; r < rounds; ++r) {
    round_start.store(clock_type::now().time_since_epoch().count(), std::memory_order_release);
    for (int s : p.writers)
      write_frame(s, frame);
    std::uint64_t done = 0;
    if (::read(round_done, &done, sizeof done) != sizeof done)
      die("eventfd");
  }
  double secs = std::chrono::duration<double>(clock_type::now() - t0).count();
  reader.join();
  ::close(round_done);
  return static_cast<double>(n) * rounds / secs;
}

} // namespace

int main(int argc, char** argv) {
  int n = 500, rounds = 200, positional = 0;
  bool json = false, paced = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0)
      json = true;
    else if (std::strcmp(argv[i], "--one-at-a-time") == 0)
      paced = true;
    else if (positional++ == 0)
      n = std::atoi(argv[i]);
    else
      rounds = std::atoi(argv[i]);
  }
  if (n <= 0 || rounds <= 0) {
    std::fprintf(stderr, "usage: sse-socket-floor [sockets] [rounds] [--one-at-a-time] [--json]\n");
    return 2;
  }
  rlimit lim{};
  ::getrlimit(RLIMIT_NOFILE, &lim);
  lim.rlim_cur = lim.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &lim);

  const std::string frame = sse_frame();
  socket_pairs pairs(n, paced);
  if (!paced) {
    double rate = streaming(pairs, rounds, frame);
    if (json)
      std::printf("{\"limit\":\"sse_socket_floor\",\"sockets\":%d,\"rounds\":%d,\"frame_bytes\":%zu,\"rate_"
                  "per_s\":%.0f}\n",
                  n, rounds, frame.size(), rate);
    else
      std::printf("floor (b): %zu-byte SSE frame, one write per frame, %d loopback sockets x %d rounds: %.0f "
                  "deliveries/s\n",
                  frame.size(), n, rounds, rate);
    return 0;
  }
  std::vector<std::uint32_t> latencies;
  double rate = one_at_a_time(pairs, rounds, frame, latencies);
  auto s = cafmcp::load::summarize(latencies);
  if (json)
    std::printf(
      "{\"limit\":\"sse_socket_floor_one_at_a_time\",\"sockets\":%d,\"rounds\":%d,\"frame_bytes\":%zu,"
      "\"rate_per_s\":%.0f,\"delivered\":%zu,\"p50_us\":%.0f,\"p99_us\":%.0f,\"max_us\":%.0f}\n",
      n, rounds, frame.size(), rate, latencies.size(), s.p50_us, s.p99_us, s.max_us);
  else
    std::printf("floor (b), one round at a time: %zu-byte SSE frame, %d loopback sockets x %d rounds: %.0f "
                "deliveries/s, "
                "latency p50 %.0f us p99 %.0f us max %.0f us\n",
                frame.size(), n, rounds, rate, s.p50_us, s.p99_us, s.max_us);
  return static_cast<std::size_t>(n) * static_cast<std::size_t>(rounds) == latencies.size() ? 0 : 1;
}

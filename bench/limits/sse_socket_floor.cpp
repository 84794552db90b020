// Floor (b): the same pre-serialized SSE frame (143 bytes, the size of a
// resources/updated event as cafmcp sends it) written to N loopback TCP
// sockets from one thread, one write(2) per frame; a second thread reads
// every client end (epoll) and counts bytes. Deliveries/s at this floor is
// what one syscall per delivery allows on this machine: the ceiling for a
// server that writes each notification on its own, and the figure that a
// server which batches writes per connection can beat.
//
//   sse-socket-floor [sockets=500] [rounds=200] [--json]
#include <atomic>
#include <chrono>
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
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

[[noreturn]] void die(const char* what) {
  std::perror(what);
  std::exit(2);
}

std::string sse_frame() {
  std::string data = R"({"jsonrpc":"2.0","method":"notifications/resources/updated","params":{"uri":"bench://load/d0/u0"}})";
  std::string f = "id: 1-123456\ndata: " + data + "\n\n";
  f.resize(143, ' '); // pad or trim to exactly 143 bytes; the tail stays "\n\n" below
  f[141] = '\n';
  f[142] = '\n';
  return f;
}

} // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 500;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 200;
  bool json = argc > 3 && std::strcmp(argv[3], "--json") == 0;
  rlimit lim{};
  ::getrlimit(RLIMIT_NOFILE, &lim);
  lim.rlim_cur = lim.rlim_max;
  ::setrlimit(RLIMIT_NOFILE, &lim);

  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(listener, 1024) != 0)
    die("listen");
  socklen_t len = sizeof addr;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&addr), &len);
  std::vector<int> writers, readers;
  int ep = ::epoll_create1(0);
  for (int i = 0; i < n; ++i) {
    int c = ::socket(AF_INET, SOCK_STREAM, 0);
    if (::connect(c, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
      die("connect");
    int s = ::accept(listener, nullptr, nullptr);
    if (s < 0)
      die("accept");
    int one = 1;
    ::setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one); // as an SSE server sets it
    writers.push_back(s);
    readers.push_back(c);
    epoll_event ev{EPOLLIN, {.fd = c}};
    ::epoll_ctl(ep, EPOLL_CTL_ADD, c, &ev);
  }
  const std::string frame = sse_frame();
  const std::uint64_t expected = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(rounds) * frame.size();
  std::atomic<std::uint64_t> received{0};
  std::thread reader([&] {
    std::vector<char> buf(1 << 16);
    epoll_event evs[256];
    std::uint64_t got = 0;
    while (got < expected) {
      int k = ::epoll_wait(ep, evs, 256, 1000);
      for (int i = 0; i < k; ++i) {
        auto r = ::read(evs[i].data.fd, buf.data(), buf.size());
        if (r > 0)
          got += static_cast<std::uint64_t>(r);
      }
    }
    received = got;
  });
  auto t0 = std::chrono::steady_clock::now();
  for (int r = 0; r < rounds; ++r)
    for (int s : writers) // blocking sockets: a full one waits for the reader, as a slow client would
      if (::write(s, frame.data(), frame.size()) != static_cast<ssize_t>(frame.size()))
        die("write");
  reader.join();
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  double rate = static_cast<double>(n) * rounds / secs;
  if (json)
    std::printf("{\"limit\":\"sse_socket_floor\",\"sockets\":%d,\"rounds\":%d,\"frame_bytes\":%zu,\"rate_per_s\":%.0f}\n",
                n, rounds, frame.size(), rate);
  else
    std::printf("floor (b): %zu-byte SSE frame, one write per frame, %d loopback sockets x %d rounds: %.0f deliveries/s\n",
                frame.size(), n, rounds, rate);
  for (int s : writers)
    ::close(s);
  for (int c : readers)
    ::close(c);
  ::close(listener);
  ::close(ep);
  return 0;
}

// Many sends in one submission (send_ring.hpp) give each job what a
// non-blocking send(2) would: all its bytes, a part of them past a nearly
// full socket, -EAGAIN on a full one, -EPIPE for a reader that left,
// -EBADF for no descriptor; and a full socket holds up none of the others.
// Every test runs with io_uring and with send(2) alone, which must agree;
// and a kernel whose send to a full socket would wait is found out when the
// ring is set up.
#include <cerrno>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <liburing.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "streamable_http/send_ring.hpp"

namespace cafmcp::http {
namespace {

struct socket_pair {
  int writer = -1, reader = -1;
  socket_pair() {
    int fds[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0, fds) == 0) {
      writer = fds[0];
      reader = fds[1];
    }
  }
  ~socket_pair() {
    for (int fd : {writer, reader})
      if (fd >= 0)
        ::close(fd);
  }
  socket_pair(const socket_pair&) = delete;
  std::string read_all() const {
    std::string out;
    char buf[65536];
    for (ssize_t n; (n = ::recv(reader, buf, sizeof buf, MSG_DONTWAIT)) > 0;)
      out.append(buf, static_cast<std::size_t>(n));
    return out;
  }
  // Fills the writer's side until the kernel takes nothing more.
  void fill() const {
    std::string block(65536, 'f');
    while (::send(writer, block.data(), block.size(), MSG_DONTWAIT | MSG_NOSIGNAL) > 0) {
    }
  }
};

class SendRing : public ::testing::TestWithParam<bool> {
protected:
  void SetUp() override {
    if (GetParam() && !ring.batched())
      GTEST_SKIP() << "io_uring cannot be used here: the send(2) run covers this";
  }
  // A small depth: 100 jobs take several submissions.
  send_ring ring{GetParam(), 16};
};

TEST_P(SendRing, EveryJobSendsAllItsBytesToItsOwnSocket) {
  EXPECT_EQ(ring.batched(), GetParam());
  constexpr int n = 100;
  std::vector<std::unique_ptr<socket_pair>> pairs;
  std::vector<std::string> payloads;
  std::vector<send_ring::job> jobs;
  for (int i = 0; i < n; ++i) {
    pairs.push_back(std::make_unique<socket_pair>());
    ASSERT_GE(pairs.back()->writer, 0);
    payloads.push_back("event " + std::to_string(i) + std::string(static_cast<std::size_t>(i), '.'));
  }
  for (int i = 0; i < n; ++i)
    jobs.push_back({pairs[i]->writer, payloads[i].data(), payloads[i].size(), -1});
  ring.send_all(jobs);
  for (int i = 0; i < n; ++i) {
    EXPECT_EQ(jobs[i].result, static_cast<long>(payloads[i].size())) << "job " << i;
    EXPECT_EQ(pairs[i]->read_all(), payloads[i]) << "socket " << i;
  }
}

TEST_P(SendRing, AFullSocketIsEagainAndHoldsUpNoOther) {
  socket_pair full, partly, fine;
  full.fill();
  // A payload larger than the socket takes: only a part goes.
  std::string big(4 << 20, 'b'), small = "small";
  std::vector<send_ring::job> jobs{
    {full.writer, small.data(), small.size(), 0},
    {partly.writer, big.data(), big.size(), 0},
    {fine.writer, small.data(), small.size(), 0},
  };
  ring.send_all(jobs);
  EXPECT_EQ(jobs[0].result, -EAGAIN);
  EXPECT_GT(jobs[1].result, 0);
  EXPECT_LT(jobs[1].result, static_cast<long>(big.size()));
  EXPECT_EQ(partly.read_all(), big.substr(0, static_cast<std::size_t>(jobs[1].result)));
  EXPECT_EQ(jobs[2].result, static_cast<long>(small.size()));
  EXPECT_EQ(fine.read_all(), small);
}

TEST_P(SendRing, AReaderThatLeftIsEpipeAndNoDescriptorIsEbadf) {
  socket_pair left, fine;
  ::close(left.reader);
  left.reader = -1;
  std::string text = "text";
  std::vector<send_ring::job> jobs{
    {left.writer, text.data(), text.size(), 0},
    {-1, text.data(), text.size(), 0},
    {fine.writer, text.data(), text.size(), 0},
  };
  ring.send_all(jobs); // MSG_NOSIGNAL: no SIGPIPE ends this test
  EXPECT_EQ(jobs[0].result, -EPIPE);
  EXPECT_EQ(jobs[1].result, -EBADF);
  EXPECT_EQ(jobs[2].result, static_cast<long>(text.size()));
  EXPECT_EQ(fine.read_all(), text);
}

INSTANTIATE_TEST_SUITE_P(Sends, SendRing, ::testing::Values(true, false),
                         [](const auto& p) { return p.param ? "IoUring" : "SendEach"; });

// Whether io_uring can be set up here at all (a seccomp profile may refuse it).
bool io_uring_here() {
  io_uring u{};
  if (io_uring_queue_init(4, &u, 0) != 0)
    return false;
  io_uring_queue_exit(&u);
  return true;
}

int kernel_major() {
  utsname u{};
  int major = 0;
  return uname(&u) == 0 && std::sscanf(u.release, "%d", &major) == 1 ? major : 0;
}

// Setting up, the ring sends once to a full socket. Kernels of the 6
// series end such a send at once (-EAGAIN, as MSG_DONTWAIT asks): the ring
// is used.
TEST(SendRingSetUp, WhereAFullSocketsSendEndsAtOnceTheRingIsUsed) {
  if (!io_uring_here() || kernel_major() < 6)
    GTEST_SKIP() << "io_uring cannot be set up here, or the kernel is older than 6";
  EXPECT_TRUE(send_ring(true).batched());
}

// Without MSG_DONTWAIT a send to a full socket waits in the kernel for room,
// as it would on a kernel that ignores the flag: the set-up's send is
// cancelled (the constructor returns) and every job goes by send(2).
TEST(SendRingSetUp, ASendThatWaitsIsCancelledAndSendsGoOneByOne) {
  if (!send_ring(true).batched())
    GTEST_SKIP() << "io_uring is not used here at all";
  send_ring waiting(true, 16, MSG_NOSIGNAL);
  EXPECT_FALSE(waiting.batched());
  socket_pair a, b; // non-blocking: send(2) without MSG_DONTWAIT ends at once too
  a.fill();
  std::string text = "text";
  std::vector<send_ring::job> jobs{{a.writer, text.data(), text.size(), 0},
                                   {b.writer, text.data(), text.size(), 0}};
  waiting.send_all(jobs);
  EXPECT_EQ(jobs[0].result, -EAGAIN);
  EXPECT_EQ(jobs[1].result, static_cast<long>(text.size()));
  EXPECT_EQ(b.read_all(), text);
}

} // namespace
} // namespace cafmcp::http

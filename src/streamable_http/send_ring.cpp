#include "streamable_http/send_ring.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <vector>

#include <liburing.h>
#include <sys/socket.h>
#include <unistd.h>

namespace cafmcp::http {

struct send_ring::ring {
  io_uring uring{};
  ~ring() { io_uring_queue_exit(&uring); }
};

namespace {

constexpr std::uint64_t cancel_tag = ~std::uint64_t{0}; // never a job's index

long plain_send(const send_ring::job& j, int flags) {
  ssize_t r;
  do
    r = ::send(j.fd, j.data, j.size, flags);
  while (r < 0 && errno == EINTR);
  return r < 0 ? -errno : static_cast<long>(r);
}

} // namespace

const int send_ring::default_flags = MSG_DONTWAIT | MSG_NOSIGNAL;

send_ring::send_ring(bool use_io_uring, unsigned depth, int flags)
  : depth_(std::max(depth, 1u)), flags_(flags) {
  if (!use_io_uring)
    return;
  auto r = std::make_unique<ring>();
  // SUBMIT_ALL: a send the kernel refuses at once still takes its slot
  // and answers in its completion, so no entry is left behind in the ring.
  if (io_uring_queue_init(depth_, &r->uring, IORING_SETUP_SUBMIT_ALL) != 0)
    return; // -EPERM (seccomp), -ENOSYS, -EINVAL: send(2) it is
  ring_ = std::move(r);
  if (!sends_end_at_once())
    ring_.reset();
}

// A full socket must end its send with -EAGAIN at once, as send(2) with
// MSG_DONTWAIT does, not wait in the kernel for room: that would hold all
// of the loop's writes until one slow reader reads. Kernels differ (an
// io_uring send that finds no room may instead wait for it), so one send to
// a full socket is tried here. The socket is a blocking one, so that only
// the flag can make the send end at once; the loop's sockets are
// non-blocking as well.
bool send_ring::sends_end_at_once() {
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0)
    return false;
  const std::vector<char> block(65536, 'p');
  while (::send(fds[0], block.data(), block.size(), MSG_DONTWAIT | MSG_NOSIGNAL) > 0) {
  }
  job probe{fds[0], block.data(), 1, 0};
  bool at_once = submit({&probe, 1}) && probe.result == -EAGAIN;
  ::close(fds[0]);
  ::close(fds[1]);
  return at_once;
}

send_ring::~send_ring() = default;

void send_ring::send_all(std::span<job> jobs) {
  for (std::size_t first = 0; first < jobs.size(); first += depth_) {
    auto part = jobs.subspan(first, std::min<std::size_t>(depth_, jobs.size() - first));
    if (ring_ && part.size() > 1) // a lone send costs less as send(2)
      submit(part);
    else
      for (auto& j : part)
        j.result = plain_send(j, flags_);
  }
}

// True when every send ended inside the submission (none had to be
// cancelled).
bool send_ring::submit(std::span<job> jobs) {
  auto* u = &ring_->uring;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    auto* sqe = io_uring_get_sqe(u); // room for depth_: the ring is empty between calls
    io_uring_prep_send(sqe, jobs[i].fd, jobs[i].data, jobs[i].size, flags_);
    io_uring_sqe_set_data64(sqe, i);
  }
  int submitted = io_uring_submit(u); // each send is issued, and completes, in here
  auto taken = jobs.first(static_cast<std::size_t>(std::clamp(submitted, 0, static_cast<int>(jobs.size()))));
  done_.assign(taken.size(), false);
  std::size_t seen = 0;
  auto reap = [&](io_uring_cqe* cqe) {
    auto tag = io_uring_cqe_get_data64(cqe);
    if (tag != cancel_tag) {
      // Cancelled before a byte went (-EINTR where a worker thread was sending).
      taken[tag].result = cqe->res == -ECANCELED || cqe->res == -EINTR ? -EAGAIN : cqe->res;
      done_[tag] = true;
      ++seen;
    }
    io_uring_cqe_seen(u, cqe);
  };
  io_uring_cqe* cqe = nullptr;
  while (seen < taken.size() && io_uring_peek_cqe(u, &cqe) == 0)
    reap(cqe);
  const bool at_once = seen == taken.size();
  if (!at_once) {
    // A send is waiting for room after all (the set-up's probe makes it
    // unlikely: a defence; the probe itself comes here where it fails). Cancel
    // what is outstanding (it then ends at once, -ECANCELED if nothing was
    // sent) and wait for every completion, the cancellations' too, so that
    // the ring is empty again.
    std::size_t cancels = 0;
    for (std::size_t i = 0; i < taken.size(); ++i)
      if (!done_[i]) {
        auto* sqe = io_uring_get_sqe(u);
        io_uring_prep_cancel64(sqe, i, 0);
        io_uring_sqe_set_data64(sqe, cancel_tag);
        ++cancels;
      }
    io_uring_submit(u);
    for (std::size_t left = (taken.size() - seen) + cancels; left > 0; --left) {
      while (io_uring_wait_cqe(u, &cqe) == -EINTR) {
      }
      reap(cqe);
    }
  }
  if (taken.size() < jobs.size()) {
    // io_uring_enter itself failed (not seen): what it did not take would
    // go out with a later submission, out of turn. The ring goes, and
    // those entries with it; they were not sent, and -EAGAIN has their
    // callers write them later, as for a full socket. send(2) from now on.
    for (auto& j : jobs.subspan(taken.size()))
      j.result = -EAGAIN;
    ring_.reset();
  }
  return at_once;
}

} // namespace cafmcp::http

#include "streamable_http/send_ring.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>

#include <liburing.h>
#include <sys/socket.h>
#include <sys/utsname.h>

namespace cafmcp::http {

struct send_ring::ring {
  io_uring uring{};
  ~ring() { io_uring_queue_exit(&uring); }
};

namespace {

// A full socket must end its send with -EAGAIN at once, as send(2) with
// MSG_DONTWAIT does, not wait in the kernel for room (that would hold the
// loop's writes until a slow reader reads). Kernels of the 6 series do;
// older ones are left to send(2). submit() still defends against a send
// that waits.
bool kernel_is_at_least_6() {
  utsname u{};
  int major = 0;
  return uname(&u) == 0 && std::sscanf(u.release, "%d", &major) == 1 && major >= 6;
}

constexpr int send_flags = MSG_DONTWAIT | MSG_NOSIGNAL;
constexpr std::uint64_t cancel_tag = ~std::uint64_t{0}; // never a job's index

long plain_send(const send_ring::job& j) {
  ssize_t r;
  do
    r = ::send(j.fd, j.data, j.size, send_flags);
  while (r < 0 && errno == EINTR);
  return r < 0 ? -errno : static_cast<long>(r);
}

} // namespace

send_ring::send_ring(bool use_io_uring, unsigned depth) : depth_(std::max(depth, 1u)) {
  if (!use_io_uring || !kernel_is_at_least_6())
    return;
  auto r = std::make_unique<ring>();
  // SUBMIT_ALL: a send the kernel refuses at once still takes its slot
  // and answers in its completion, so no entry is left behind in the ring.
  if (io_uring_queue_init(depth_, &r->uring, IORING_SETUP_SUBMIT_ALL) == 0)
    ring_ = std::move(r); // otherwise -EPERM (seccomp), -ENOSYS, -EINVAL: send(2) it is
}

send_ring::~send_ring() = default;

void send_ring::send_all(std::span<job> jobs) {
  for (std::size_t first = 0; first < jobs.size(); first += depth_) {
    auto part = jobs.subspan(first, std::min<std::size_t>(depth_, jobs.size() - first));
    if (ring_ && part.size() > 1) // a lone send costs less as send(2)
      submit(part);
    else
      for (auto& j : part)
        j.result = plain_send(j);
  }
}

void send_ring::submit(std::span<job> jobs) {
  auto* u = &ring_->uring;
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    auto* sqe = io_uring_get_sqe(u); // room for depth_: the ring is empty between calls
    io_uring_prep_send(sqe, jobs[i].fd, jobs[i].data, jobs[i].size, send_flags);
    io_uring_sqe_set_data64(sqe, i);
  }
  int submitted = io_uring_submit(u); // each send is issued, and completes, in here
  auto taken = jobs.first(static_cast<std::size_t>(std::clamp(submitted, 0, static_cast<int>(jobs.size()))));
  done_.assign(taken.size(), false);
  std::size_t seen = 0;
  auto reap = [&](io_uring_cqe* cqe) {
    auto tag = io_uring_cqe_get_data64(cqe);
    if (tag != cancel_tag) {
      taken[tag].result = cqe->res == -ECANCELED ? -EAGAIN : cqe->res; // cancelled before a byte went
      done_[tag] = true;
      ++seen;
    }
    io_uring_cqe_seen(u, cqe);
  };
  io_uring_cqe* cqe = nullptr;
  while (seen < taken.size() && io_uring_peek_cqe(u, &cqe) == 0)
    reap(cqe);
  if (seen < taken.size()) {
    // A send is waiting for room after all (not seen: a defence). Cancel
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
}

} // namespace cafmcp::http

#pragma once
// Whether the stdio reader spins before it blocks, learnt from what its
// spins find. One job: say how long to spin before the next read.
//
// A spin pays when the client runs on another CPU and answers within it:
// the read finds the line without a wake-up (one update at a time: 34k/s
// against 22k/s without the spin, 20,000 updates). It costs when the client
// shares this thread's CPU, as it does for a while after it started the
// server: the client cannot run while this thread spins, the spin runs
// out, and the line arrives just after this thread blocks (21-29k/s
// against 48k/s without the spin, the first 2,000 updates). That is the
// signature watched for: a spin that found nothing, then a wait shorter
// than the spin. It is rarely alone or always there, so a score weighs
// it: +8 for each, -1 for each spin that finds the line; at 24 (about one
// read in nine) spinning stops. Every `probe_every` reads it spins once
// more (the scheduler may have moved one of the two since), and a spin
// that finds the line turns spinning back on. A client that is merely
// slow (waits longer than the spin) is no sign of a shared CPU: the spin
// stays, costing at most its budget per read.
//
// Cost model: two clock reads around a blocking read that followed a spin
// that found nothing; nothing otherwise.
#include <chrono>
#include <cstdint>

namespace cafmcp::transport {

class spin_policy {
public:
  using duration = std::chrono::steady_clock::duration;

  explicit spin_policy(duration budget, std::uint32_t probe_every = 64)
    : budget_(budget), probe_every_(probe_every) {}

  /// How long to spin before the next read: the budget, or zero while
  /// spinning is off and this is not a read to probe with.
  duration next() {
    if (budget_ <= duration::zero())
      return duration::zero();
    if (spinning_)
      return budget_;
    if (++since_probe_ < probe_every_)
      return duration::zero();
    since_probe_ = 0;
    return budget_;
  }

  /// The spin found the line (or the end of input).
  void found() {
    spinning_ = true;
    if (score_ > 0)
      --score_;
  }

  /// The spin ran out, and the blocking read after it waited `waited`.
  void missed(duration waited) {
    if (waited >= budget_ || !spinning_) // a slow client; or a probe, which decides nothing
      return;
    score_ += blocked_weight;
    if (score_ >= give_up_at) {
      spinning_ = false;
      score_ = 0;
      since_probe_ = 0;
    }
  }

  bool spinning() const { return spinning_; }

private:
  static constexpr std::uint32_t blocked_weight = 8;
  static constexpr std::uint32_t give_up_at = 24;
  duration budget_;
  std::uint32_t probe_every_;
  bool spinning_ = true;
  std::uint32_t score_ = 0;
  std::uint32_t since_probe_ = 0;
};

} // namespace cafmcp::transport

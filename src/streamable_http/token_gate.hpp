#pragma once
// Where a request's bearer token is judged without stalling an event loop.
// A verifier may block (a JWKS fetch, an introspection round trip), so a
// token not seen before is verified on the transport's verification
// threads and the request continues on its loop afterwards. Valid verdicts
// are kept per loop (no lock shared between loops) until the token expires
// or auth_cache_ttl passes: a token seen again costs a hash lookup.
//
// Cost model: a cached token, one unordered_map lookup on the loop; a new
// one, two thread hand-offs plus the verifier's own work (an RS256 check is
// tens of microseconds; a key fetch or introspection a round trip).
// Refusals are not kept: a bad token is verified again each time, off the
// loop, bounded by max_pending_verifications (503 beyond).
#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

#include "cafmcp/auth.hpp"

#include "foundation/string_hash.hpp"

namespace cafmcp::http {

/// The transport's verification threads (shared by every loop).
class verification_pool {
public:
  verification_pool(std::shared_ptr<auth::token_verifier> v, std::size_t threads, std::size_t max_pending);
  ~verification_pool();
  verification_pool(const verification_pool&) = delete;
  verification_pool& operator=(const verification_pool&) = delete;

  /// `done` runs on a verification thread with the verdict. False (and
  /// `done` never runs) when max_pending verifications wait already, or
  /// after stop().
  bool submit(std::string token, std::function<void(auth::verdict)> done);
  /// Joins the threads; verifications still waiting are dropped (their
  /// `done` destroyed, not run, on the calling thread: call it when no
  /// event loop runs any more, and before the loops they post to go away).
  void stop();

private:
  struct job {
    std::string token;
    std::function<void(auth::verdict)> done;
  };
  void work();

  std::shared_ptr<auth::token_verifier> verifier_;
  std::size_t max_pending_;
  std::mutex mtx_;
  std::condition_variable wake_;
  std::deque<job> jobs_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

/// One loop's valid verdicts, by token (loop thread only).
class verdict_cache {
public:
  verdict_cache(std::chrono::milliseconds ttl, std::size_t max_entries) : ttl_(ttl), max_(max_entries) {}
  /// The identity a still-fresh verdict gave `token`, or null.
  std::shared_ptr<const auth::identity> find(std::string_view token, std::chrono::steady_clock::time_point now);
  /// Keeps `who` for `token` until its expiry or the ttl, whichever is first.
  void keep(std::string token, std::shared_ptr<const auth::identity> who, std::chrono::steady_clock::time_point now);

private:
  struct entry {
    std::shared_ptr<const auth::identity> who;
    std::chrono::steady_clock::time_point until;
  };
  std::chrono::milliseconds ttl_;
  std::size_t max_;
  std::unordered_map<std::string, entry, string_hash, std::equal_to<>> entries_;
};

/// When `who`'s token expires on the steady clock (its `exp` read against
/// the system clock now), or nullopt when it names no expiry.
std::optional<std::chrono::steady_clock::time_point> steady_expiry(const auth::identity& who,
                                                                   std::chrono::steady_clock::time_point now);

} // namespace cafmcp::http

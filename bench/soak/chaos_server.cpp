// cafmcp-chaos-server: the everything-server with a fault injector beside it,
// for the soak (bench/soak/soak.mjs --chaos). Every so often (a random
// interval around CAFMCP_CHAOS_INTERVAL_MS, default 1000; CAFMCP_CHAOS_SEED
// for a repeatable run) it makes the server actor or the change notifier
// exit as a crash does: unhandled_exception, not kill, which CAF carries
// through links untrappably and would take the supervisor along. The
// supervisor must bring each back with nothing a client was promised lost;
// it is allowed as many restarts as the run needs. Each fault is one stderr
// line, so that a run says what it did. SIGUSR1 ends the faults ("chaos:
// stopped after N faults"), so that a soak can check a quiet end.
//
// A bench binary, not an example: it reaches the server's actors through
// cafmcp's internal server_access, as the core tests do.
#include <signal.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include <caf/all.hpp>

#include "actors/runtime.hpp"
#include "actors/server_access.hpp"
#include "server_main.hpp"

namespace {

std::atomic<bool> stop_requested{false};

void request_stop(int) { stop_requested = true; } // async-signal-safe: a lock-free store

std::int64_t env_number(const char* name, std::int64_t fallback) {
  const char* v = std::getenv(name);
  if (!v || !*v)
    return fallback;
  try {
    return std::stoll(v);
  } catch (const std::exception&) {
    std::fprintf(stderr, "cafmcp-chaos-server: %s=%s is not a number\n", name, v);
    std::exit(2);
  }
}

class chaos_monkey {
public:
  chaos_monkey(cafmcp::server& srv, std::chrono::milliseconds interval, std::uint64_t seed)
    : rt_(cafmcp::server_access::of(srv).rt), interval_(interval), random_(seed) {
    thread_ = std::thread([this] { run(); });
  }
  ~chaos_monkey() {
    {
      std::lock_guard<std::mutex> g(mtx_);
      stopping_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }
  chaos_monkey(const chaos_monkey&) = delete;
  chaos_monkey& operator=(const chaos_monkey&) = delete;

private:
  void run() {
    std::uniform_int_distribution<std::int64_t> pause(interval_.count() / 2, interval_.count() * 3 / 2);
    std::bernoulli_distribution pick_server(0.5);
    std::unique_lock<std::mutex> lock(mtx_);
    for (int n = 1;; ++n) {
      // The pace of the faults (not a synchronisation), in slices that
      // notice SIGUSR1 (a handler cannot notify a condition variable).
      auto next = std::chrono::steady_clock::now() + std::chrono::milliseconds(pause(random_));
      while (!stopping_ && !stop_requested && std::chrono::steady_clock::now() < next)
        wake_.wait_until(lock, std::min(next, std::chrono::steady_clock::now() + std::chrono::milliseconds(20)));
      if (stop_requested) {
        std::fprintf(stderr, "chaos: stopped after %d faults\n", n - 1);
        return;
      }
      if (stopping_)
        return;
      bool server = pick_server(random_);
      caf::actor_addr target = server ? caf::actor_cast<caf::actor_addr>(rt_->server())
                                      : caf::actor_cast<caf::actor_addr>(rt_->notifier());
      if (!target)
        continue; // being restarted right now
      caf::anon_send_exit(target, caf::exit_reason::unhandled_exception);
      std::fprintf(stderr, "chaos: fault %d: the %s\n", n, server ? "server actor" : "change notifier");
    }
  }

  std::shared_ptr<cafmcp::actors::runtime> rt_;
  std::chrono::milliseconds interval_;
  std::mt19937_64 random_;
  std::mutex mtx_;
  std::condition_variable wake_;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace

int main(int argc, char** argv) {
  auto interval = std::chrono::milliseconds(env_number("CAFMCP_CHAOS_INTERVAL_MS", 1000));
  auto seed = static_cast<std::uint64_t>(env_number("CAFMCP_CHAOS_SEED", std::random_device{}()));
  if (interval.count() < 2) {
    std::fputs("cafmcp-chaos-server: CAFMCP_CHAOS_INTERVAL_MS must be at least 2\n", stderr);
    return 2;
  }
  struct sigaction on_usr1 {};
  on_usr1.sa_handler = request_stop;
  sigemptyset(&on_usr1.sa_mask);
  sigaction(SIGUSR1, &on_usr1, nullptr);
  std::fprintf(stderr, "chaos: a fault every ~%lld ms, seed %llu\n", static_cast<long long>(interval.count()),
               static_cast<unsigned long long>(seed));
  everything::server_hooks hooks;
  hooks.configure = [](cafmcp::server_options& o) {
    o.supervision.max_restarts = 1000000; // the run decides how many
    o.supervision.window = std::chrono::seconds(1);
  };
  hooks.started = [&](cafmcp::server& srv) -> std::shared_ptr<void> {
    return std::make_shared<chaos_monkey>(srv, interval, seed);
  };
  return everything::server_main(argc, argv, hooks);
}

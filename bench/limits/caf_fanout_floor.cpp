// Floor (a): raw CAF fan-out. One shared, immutable payload (a
// shared_ptr<const std::string>, as cafmcp's notifier shares its frames) is
// sent to N actors, round after round; each actor only counts it. The
// figure is what CAF's messaging alone allows on this machine: the ceiling
// for the notifier's in-process fan-out.
//
//   caf-fanout-floor [actors=1000] [rounds=300] [--json]
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include <caf/all.hpp>

using payload = std::shared_ptr<const std::string>;
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(payload)

namespace {

struct tally {
  std::atomic<std::uint64_t> count{0};
  std::uint64_t target = 0;
  std::mutex m;
  std::condition_variable cv;
};

caf::behavior counter(caf::event_based_actor*, tally* t) {
  return {[t](const payload& p) {
    if (p && t->count.fetch_add(1, std::memory_order_relaxed) + 1 == t->target) {
      std::lock_guard<std::mutex> g(t->m);
      t->cv.notify_all();
    }
  }};
}

} // namespace

int main(int argc, char** argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 1000;
  int rounds = argc > 2 ? std::atoi(argv[2]) : 300;
  bool json = argc > 3 && std::strcmp(argv[3], "--json") == 0;
  caf::actor_system_config cfg;
  cfg.set("scheduler.max-threads", 2);
  double rate = 0;
  {
    caf::actor_system sys{cfg};
    tally t;
    t.target = static_cast<std::uint64_t>(n) * static_cast<std::uint64_t>(rounds);
    std::vector<caf::actor> actors;
    for (int i = 0; i < n; ++i)
      actors.push_back(sys.spawn(counter, &t));
    auto frame = std::make_shared<const std::string>(std::string(143, 'x'));
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < rounds; ++r)
      for (auto& a : actors)
        caf::anon_send(a, frame);
    {
      std::unique_lock<std::mutex> lock(t.m);
      t.cv.wait_for(lock, std::chrono::seconds(120), [&] { return t.count.load() >= t.target; });
    }
    double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    rate = static_cast<double>(t.count.load()) / secs;
    for (auto& a : actors)
      caf::anon_send_exit(a, caf::exit_reason::user_shutdown);
  }
  if (json)
    std::printf("{\"limit\":\"caf_fanout_floor\",\"actors\":%d,\"rounds\":%d,\"rate_per_s\":%.0f}\n", n,
                rounds, rate);
  else
    std::printf("floor (a): one shared payload to %d CAF actors x %d rounds: %.0f deliveries/s\n", n, rounds,
                rate);
  return 0;
}

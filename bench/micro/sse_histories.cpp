// SSE histories under broadcasts: every session's history takes the same
// frame in turn, as a `resources/updated` to N sessions does, once each has
// reached its steady state, where every append also discards one event:
//  - regime 0, each history's own count bound discards (its own oldest);
//  - regime 1, the budget every history shares discards (the oldest of any,
//    seldom the appending history's).
// Both keep 32 events per history. Histories are spread through memory with
// a few KiB between them, as sessions' objects are, so that 10,000 of them
// are out of cache as they are in a server, and a broadcast reaches them in
// an order that is not their addresses' (sessions come and go), asking for
// each a few ahead as the notifier's pass does. Items = appends.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "foundation/prefetch.hpp"
#include "streamable_http/event_store.hpp"

namespace {

using cafmcp::http::event_store;
using cafmcp::http::history_budget;

constexpr std::size_t kept_per_history = 32;
constexpr std::size_t spacer_bytes = 4096;

void sse_histories_broadcast(benchmark::State& state) {
  auto n = static_cast<std::size_t>(state.range(0));
  bool budget_bound = state.range(1) == 1;
  auto frame = std::make_shared<const std::string>(143, 'x');
  std::size_t cost = sizeof(event_store::event) + frame->size() + sizeof(void*);
  auto budget =
    std::make_shared<history_budget>(budget_bound ? n * kept_per_history * cost : std::size_t(1) << 40);
  std::vector<std::unique_ptr<event_store>> histories;
  std::vector<std::unique_ptr<char[]>> spacers;
  for (std::size_t i = 0; i < n; ++i) {
    histories.push_back(std::make_unique<event_store>(budget_bound ? 1024 : kept_per_history,
                                                      std::chrono::hours(1), std::size_t(1) << 30, budget));
    spacers.push_back(std::make_unique<char[]>(spacer_bytes));
  }
  std::shuffle(histories.begin(), histories.end(), std::mt19937(2026));
  auto round = [&] {
    auto f = std::make_shared<const std::string>(*frame); // a broadcast's one frame, shared
    for (std::size_t i = 0; i < n; ++i) {
      if (i + cafmcp::prefetch_distance < n)
        cafmcp::prefetch_lines(histories[i + cafmcp::prefetch_distance].get(), 2);
      histories[i]->append(f);
    }
  };
  for (std::size_t r = 0; r < kept_per_history + 8; ++r) // to the steady state
    round();
  auto discarded = budget->discarded();
  for (auto _ : state)
    round();
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  if (budget_bound && budget->discarded() == discarded)
    state.SkipWithError("the budget discarded nothing: not the regime asked for");
}
BENCHMARK(sse_histories_broadcast)->Args({500, 0})->Args({500, 1})->Args({10000, 0})->Args({10000, 1});

} // namespace

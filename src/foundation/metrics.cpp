#include "cafmcp/metrics.hpp"

#include <algorithm>
#include <stdexcept>

#include "cafmcp/tracing.hpp" // unix_nano_now

namespace cafmcp {

histogram_series::histogram_series(const std::vector<double>& bounds)
  : bounds_(bounds), buckets_(new std::atomic<std::uint64_t>[bounds.size() + 1]) {
  for (std::size_t i = 0; i <= bounds.size(); ++i)
    buckets_[i].store(0, std::memory_order_relaxed);
}

void histogram_series::record(double v) noexcept {
  auto at = std::lower_bound(bounds_.begin(), bounds_.end(), v) - bounds_.begin();
  sum_.fetch_add(v, std::memory_order_relaxed);
  buckets_[static_cast<std::size_t>(at)].fetch_add(1, std::memory_order_relaxed);
}

void histogram_series::read(metric_point& into) const {
  into.bucket_counts.resize(bounds_.size() + 1);
  into.count = 0;
  for (std::size_t i = 0; i <= bounds_.size(); ++i) {
    into.bucket_counts[i] = buckets_[i].load(std::memory_order_relaxed);
    into.count += into.bucket_counts[i];
  }
  into.sum = sum_.load(std::memory_order_relaxed);
}

namespace detail {
namespace {

// The values joined (a unit separator between them: it appears in no name
// a client sends that matters, and a collision only merges two series).
void join_values(std::string& key, std::initializer_list<std::string_view> values) {
  key.clear();
  for (auto v : values) {
    key.append(v);
    key.push_back('\x1f');
  }
}

} // namespace

void* series_index::find(std::initializer_list<std::string_view> values, const std::function<void*()>& make) {
  thread_local std::string key; // keeps its capacity: no allocation per record
  join_values(key, values);
  auto& sh = shards_[std::hash<std::string_view>{}(key) % shard_count];
  {
    std::lock_guard<std::mutex> g(sh.lock);
    if (auto it = sh.series.find(std::string_view(key)); it != sh.series.end())
      return it->second.series;
    if (count_.fetch_add(1, std::memory_order_relaxed) < limit_) {
      metric_attributes attributes;
      auto k = keys_.begin();
      for (auto v : values) {
        if (k == keys_.end())
          break;
        if (!v.empty())
          attributes.emplace_back(*k, std::string(v));
        ++k;
      }
      auto* s = make();
      sh.series.emplace(key, entry{std::move(attributes), s});
      return s;
    }
    count_.fetch_sub(1, std::memory_order_relaxed);
  }
  if (auto* s = overflow_.load(std::memory_order_acquire))
    return s;
  std::lock_guard<std::mutex> g(overflow_lock_);
  if (!overflow_.load(std::memory_order_relaxed))
    overflow_.store(make(), std::memory_order_release);
  return overflow_.load(std::memory_order_relaxed);
}

void series_index::each(const std::function<void(const metric_attributes&, const void*)>& f) const {
  for (auto& sh : shards_) {
    std::lock_guard<std::mutex> g(sh.lock);
    for (auto& [key, e] : sh.series)
      f(e.attributes, e.series);
  }
  if (auto* s = overflow_.load(std::memory_order_acquire)) // set once, kept until the family ends
    f({{"otel.metric.overflow", "true"}}, s);
}

void series_index::clear() {
  for (auto& sh : shards_) {
    for (auto& [key, e] : sh.series)
      destroy(e.series);
    sh.series.clear();
  }
  if (auto* s = overflow_.exchange(nullptr))
    destroy(s);
}

} // namespace detail

// -- observations -----------------------------------------------------------

struct metric_observation::callbacks {
  struct entry {
    std::string name, unit, description;
    metric_kind kind;
    std::function<void(metric_observer&)> read;
  };
  std::mutex lock; // held while callbacks run: unregistering waits for them
  std::map<std::uint64_t, entry> entries;
  std::uint64_t next = 0;
};

metric_observation& metric_observation::operator=(metric_observation&& o) noexcept {
  if (this != &o) {
    reset();
    owner_ = std::move(o.owner_);
    id_ = o.id_;
  }
  return *this;
}

void metric_observation::reset() {
  if (auto cb = owner_.lock()) {
    std::lock_guard<std::mutex> g(cb->lock);
    cb->entries.erase(id_);
  }
  owner_.reset();
}

// -- the registry -----------------------------------------------------------

struct metrics_registry::family_entry {
  std::string name, unit, description;
  metric_kind kind;
  std::vector<std::string> keys;
  std::unique_ptr<counter_family> counters;
  std::unique_ptr<gauge_family> gauges;
  std::unique_ptr<histogram_family> histograms;
};

metrics_registry::metrics_registry(std::size_t max_series_per_family)
  : max_series_(std::max<std::size_t>(1, max_series_per_family)), start_unix_nano_(unix_nano_now()),
    callbacks_(std::make_shared<metric_observation::callbacks>()) {}

metrics_registry::~metrics_registry() = default;

metrics_registry::family_entry& metrics_registry::find_or_add(std::string name, std::string unit,
                                                              std::string description, metric_kind kind,
                                                              const std::vector<std::string>& keys,
                                                              const std::vector<double>* bounds) {
  std::lock_guard<std::mutex> g(families_lock_);
  for (auto& f : families_)
    if (f->name == name) {
      bool same_bounds = !bounds || (f->histograms && f->histograms->bounds() == *bounds);
      if (f->kind != kind || f->keys != keys || !same_bounds)
        throw std::invalid_argument("metric " + name + " exists with another kind, keys or bounds");
      return *f;
    }
  auto f = std::make_unique<family_entry>();
  f->name = std::move(name);
  f->unit = std::move(unit);
  f->description = std::move(description);
  f->kind = kind;
  f->keys = keys;
  switch (kind) {
    case metric_kind::counter: f->counters = std::make_unique<counter_family>(keys, max_series_); break;
    case metric_kind::histogram:
      if (!std::is_sorted(bounds->begin(), bounds->end())
          || std::adjacent_find(bounds->begin(), bounds->end()) != bounds->end())
        throw std::invalid_argument("histogram " + f->name + ": bounds must be strictly ascending");
      f->histograms = std::make_unique<histogram_family>(keys, max_series_, *bounds);
      break;
    default: f->gauges = std::make_unique<gauge_family>(keys, max_series_); break;
  }
  families_.push_back(std::move(f));
  return *families_.back();
}

counter_family& metrics_registry::counter(std::string name, std::string unit, std::string description,
                                          std::vector<std::string> keys) {
  return *find_or_add(std::move(name), std::move(unit), std::move(description), metric_kind::counter, keys,
                      nullptr)
            .counters;
}

gauge_family& metrics_registry::up_down_counter(std::string name, std::string unit, std::string description,
                                                std::vector<std::string> keys) {
  return *find_or_add(std::move(name), std::move(unit), std::move(description), metric_kind::up_down_counter,
                      keys, nullptr)
            .gauges;
}

histogram_family& metrics_registry::histogram(std::string name, std::string unit, std::string description,
                                              std::vector<double> bounds, std::vector<std::string> keys) {
  return *find_or_add(std::move(name), std::move(unit), std::move(description), metric_kind::histogram, keys,
                      &bounds)
            .histograms;
}

metric_observation metrics_registry::observe(std::string name, std::string unit, std::string description,
                                             metric_kind kind, std::function<void(metric_observer&)> read) {
  if (kind == metric_kind::histogram)
    throw std::invalid_argument("metric " + name + ": an observed value cannot be a histogram");
  std::lock_guard<std::mutex> g(callbacks_->lock);
  auto id = ++callbacks_->next;
  callbacks_->entries.emplace(id, metric_observation::callbacks::entry{std::move(name), std::move(unit),
                                                                       std::move(description), kind,
                                                                       std::move(read)});
  return metric_observation(callbacks_, id);
}

metrics_snapshot metrics_registry::collect() const {
  metrics_snapshot snap;
  snap.start_unix_nano = start_unix_nano_;
  {
    std::lock_guard<std::mutex> g(families_lock_);
    for (auto& f : families_) {
      metric_family out{f->name, f->unit, f->description, f->kind, {}, {}};
      if (f->counters)
        f->counters->each([&](const metric_attributes& a, const counter_series& s) {
          out.points.push_back({a, static_cast<std::int64_t>(s.value()), {}, 0, 0});
        });
      if (f->gauges)
        f->gauges->each([&](const metric_attributes& a, const gauge_series& s) {
          out.points.push_back({a, s.value(), {}, 0, 0});
        });
      if (f->histograms) {
        out.bounds = f->histograms->bounds();
        f->histograms->each([&](const metric_attributes& a, const histogram_series& s) {
          metric_point p;
          p.attributes = a;
          s.read(p);
          out.points.push_back(std::move(p));
        });
      }
      snap.families.push_back(std::move(out));
    }
  }
  // Observed values: several callbacks may report under one name (two
  // transports of one server); they share a family.
  std::lock_guard<std::mutex> g(callbacks_->lock);
  for (auto& entry : callbacks_->entries) {
    auto& e = entry.second; // not a structured binding: clang 14 (the fuzz build) cannot capture one
    metric_observer o;
    e.read(o);
    auto it = std::find_if(snap.families.begin(), snap.families.end(),
                           [&](const metric_family& f) { return f.name == e.name; });
    if (it == snap.families.end()) {
      snap.families.push_back(metric_family{e.name, e.unit, e.description, e.kind, {}, {}});
      it = snap.families.end() - 1;
    }
    for (auto& p : o.points_)
      it->points.push_back(std::move(p));
  }
  snap.time_unix_nano = unix_nano_now();
  return snap;
}

} // namespace cafmcp

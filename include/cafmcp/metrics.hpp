#pragma once
// Metrics a server keeps about itself: counters, gauges and explicit-bucket
// histograms, grouped in families that share a name, a unit and a fixed
// list of attribute keys. Recording is lock-free (relaxed atomics on the
// series); finding a series takes one of a family's shards' locks, never a
// lock the whole registry shares. `collect()` reads a snapshot that the
// Prometheus text (prometheus_text.hpp) and the OTLP metrics exporter
// (otel/) write out. Off unless a registry is given to
// server_options::metrics.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace cafmcp {

enum class metric_kind {
  counter,         // monotonic sum (Prometheus counter, `_total`)
  up_down_counter, // a sum that goes both ways (Prometheus gauge)
  gauge,           // a value read when collected (Prometheus gauge)
  histogram,       // explicit bucket bounds
};

/// One series' attributes, in its family's key order; absent ones left out.
using metric_attributes = std::vector<std::pair<std::string, std::string>>;

struct metric_point {
  metric_attributes attributes;
  std::int64_t value = 0; // counters and gauges
  // Histograms: one count per bucket, bounds.size() + 1 of them (the last
  // one above every bound), not cumulative; count is their sum.
  std::vector<std::uint64_t> bucket_counts;
  std::uint64_t count = 0;
  double sum = 0;
};

struct metric_family {
  std::string name; // OpenTelemetry's spelling: `mcp.server.operation.duration`
  std::string unit; // UCUM: "s", "By", "{session}"
  std::string description;
  metric_kind kind = metric_kind::counter;
  std::vector<double> bounds; // histograms: the buckets' upper bounds, ascending
  std::vector<metric_point> points;
};

struct metrics_snapshot {
  std::uint64_t start_unix_nano = 0; // when the registry was made: cumulative since then
  std::uint64_t time_unix_nano = 0;
  std::vector<metric_family> families; // in the order they were made
};

/// What exporters read (a virtual call, so that otel/'s adapter needs no
/// link to the core).
class metric_producer {
public:
  virtual ~metric_producer() = default;
  virtual metrics_snapshot collect() const = 0;
};

class counter_series {
public:
  void add(std::uint64_t n = 1) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
  std::uint64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

private:
  std::atomic<std::uint64_t> value_{0};
};

class gauge_series {
public:
  void add(std::int64_t n) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
  void set(std::int64_t n) noexcept { value_.store(n, std::memory_order_relaxed); }
  std::int64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

private:
  std::atomic<std::int64_t> value_{0};
};

class histogram_series {
public:
  explicit histogram_series(const std::vector<double>& bounds);
  /// `v` lands in the first bucket whose bound is >= v (Prometheus's `le`).
  void record(double v) noexcept;
  /// Counts per bucket, their total, and the sum (a concurrent record may
  /// show in the counts and not yet in the sum; never the other way round
  /// between count and buckets: the count is their total).
  void read(metric_point& into) const;

private:
  const std::vector<double>& bounds_;
  std::unique_ptr<std::atomic<std::uint64_t>[]> buckets_;
  std::atomic<double> sum_{0};
};

namespace detail {

/// A family's series by attribute values, in shards with a lock each. Past
/// `limit` series, new value combinations share one overflow series
/// (attribute `otel.metric.overflow=true`, as OpenTelemetry's SDKs do): a
/// client choosing values cannot grow memory without bound.
class series_index {
public:
  series_index(std::vector<std::string> keys, std::size_t limit) : keys_(std::move(keys)), limit_(limit) {}
  virtual ~series_index() = default;
  const std::vector<std::string>& keys() const { return keys_; }

protected:
  /// The series for `values` (one per key, empty: absent), made by `make`
  /// on first use.
  void* find(std::initializer_list<std::string_view> values, const std::function<void*()>& make);
  /// Every series with its attributes.
  void each(const std::function<void(const metric_attributes&, const void*)>& f) const;
  /// Frees a series made by `make`.
  virtual void destroy(void* series) const = 0;
  void clear();

private:
  struct entry {
    metric_attributes attributes;
    void* series;
  };
  static constexpr std::size_t shard_count = 8;
  struct shard {
    mutable std::mutex lock;
    std::map<std::string, entry, std::less<>> series; // by the values joined
  };
  std::vector<std::string> keys_;
  std::size_t limit_;
  std::atomic<std::size_t> count_{0};
  shard shards_[shard_count];
  std::mutex overflow_lock_;
  std::atomic<void*> overflow_{nullptr};
};

template <class Series>
class series_family : public series_index {
public:
  using series_index::series_index;
  ~series_family() override { clear(); }
  /// One value per key, in the keys' order; "" leaves that attribute out.
  Series& with(std::initializer_list<std::string_view> values) {
    return *static_cast<Series*>(find(values, [this] { return static_cast<void*>(make()); }));
  }
  void each(const std::function<void(const metric_attributes&, const Series&)>& f) const {
    series_index::each(
      [&](const metric_attributes& a, const void* s) { f(a, *static_cast<const Series*>(s)); });
  }

protected:
  virtual Series* make() {
    if constexpr (std::is_default_constructible_v<Series>)
      return new Series();
    else
      return nullptr; // made by a derived family
  }
  void destroy(void* s) const override { delete static_cast<Series*>(s); }
};

} // namespace detail

using counter_family = detail::series_family<counter_series>;
using gauge_family = detail::series_family<gauge_series>;

class histogram_family : public detail::series_family<histogram_series> {
public:
  histogram_family(std::vector<std::string> keys, std::size_t limit, std::vector<double> bounds)
    : series_family(std::move(keys), limit), bounds_(std::move(bounds)) {}
  ~histogram_family() override { clear(); } // before bounds_, which the series refer to
  const std::vector<double>& bounds() const { return bounds_; }

protected:
  histogram_series* make() override { return new histogram_series(bounds_); }

private:
  std::vector<double> bounds_;
};

/// Where a gauge callback reports what it read.
class metric_observer {
public:
  void observe(std::int64_t value, metric_attributes attributes = {}) {
    points_.push_back(metric_point{std::move(attributes), value, {}, 0, 0});
  }

private:
  friend class metrics_registry;
  std::vector<metric_point> points_;
};

/// Keeps a callback registered (metrics_registry::observe); destroying it
/// unregisters, after any collection running it has finished.
class metric_observation {
public:
  metric_observation() = default;
  ~metric_observation() { reset(); }
  metric_observation(metric_observation&& o) noexcept : owner_(std::move(o.owner_)), id_(o.id_) {}
  metric_observation& operator=(metric_observation&& o) noexcept;
  metric_observation(const metric_observation&) = delete;
  metric_observation& operator=(const metric_observation&) = delete;
  void reset();

  struct callbacks;

private:
  friend class metrics_registry;
  metric_observation(std::weak_ptr<callbacks> owner, std::uint64_t id) : owner_(std::move(owner)), id_(id) {}
  std::weak_ptr<callbacks> owner_;
  std::uint64_t id_ = 0;
};

class metrics_registry final : public metric_producer {
public:
  /// `max_series_per_family`: distinct attribute combinations one family
  /// keeps before the overflow series takes the rest.
  explicit metrics_registry(std::size_t max_series_per_family = 2000);
  ~metrics_registry() override;
  metrics_registry(const metrics_registry&) = delete;
  metrics_registry& operator=(const metrics_registry&) = delete;

  // Asking twice for one name gives the same family (throws
  // std::invalid_argument when the kind, keys or bounds differ).
  counter_family& counter(std::string name, std::string unit, std::string description,
                          std::vector<std::string> keys = {});
  gauge_family& up_down_counter(std::string name, std::string unit, std::string description,
                                std::vector<std::string> keys = {});
  histogram_family& histogram(std::string name, std::string unit, std::string description,
                              std::vector<double> bounds, std::vector<std::string> keys = {});

  /// A value read at each collection, on the collecting thread: `read`
  /// reports it (with attributes) to the observer. `kind`: gauge,
  /// up_down_counter, or counter (a monotonic total kept elsewhere).
  [[nodiscard]] metric_observation observe(std::string name, std::string unit, std::string description,
                                           metric_kind kind, std::function<void(metric_observer&)> read);

  metrics_snapshot collect() const override;

private:
  struct family_entry;
  family_entry& find_or_add(std::string name, std::string unit, std::string description, metric_kind kind,
                            const std::vector<std::string>& keys, const std::vector<double>* bounds);
  std::size_t max_series_;
  std::uint64_t start_unix_nano_;
  mutable std::mutex families_lock_; // taken when a family is made or read, not per record
  std::vector<std::unique_ptr<family_entry>> families_;
  std::shared_ptr<metric_observation::callbacks> callbacks_;
};

} // namespace cafmcp

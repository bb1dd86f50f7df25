// File: metrics.h
//
// Kafka's metrics model, natively: a Sensor records values and keeps the stats Kafka's metrics
// library defines (Value, CumulativeCount, CumulativeSum, Rate, Min, Max, Avg), each published
// as a metric named domain/group/name/tags, as Kafka names its MBeans
// (`kafka.connect.mirror:type=MirrorSourceConnector,source=A,...` attribute `record-count`).
//
// Sensors live in a MetricsScope owned by a task or connector; destroying the scope removes
// them from the registry, so the metrics of a dead task disappear instead of reading zero.
//
// Thread-safety: everything here is thread-safe. Sensor::Record takes one uncontended lock.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <vector>

#include "absl/container/btree_set.h"
#include "absl/container/inlined_vector.h"

namespace connectd::metrics {

// kGauge: computed when read (Kafka's Gauge and Measurable), by a sensor added with AddGauge.
enum class StatKind { kValue, kCumulativeCount, kCumulativeSum, kRate, kMin, kMax, kAvg, kGauge };

// A gauge's value at `now_ms`. It runs on the thread that reads the metrics (the REST thread),
// under the sensor's lock: it must not touch its sensor, and must own (share) what it reads.
using GaugeFunction = std::function<double(int64_t now_ms)>;

// Kafka's Sensor.RecordingLevel, ordered: a registry serves the metrics at or below its level
// (the worker's metrics.recording.level). Unlike Kafka, a metric above the level is still
// recorded, because the worker reads some itself (flow health reads MirrorSource's DEBUG
// per-partition metrics); only a reader of the whole registry (GET /metrics) leaves it out.
enum class RecordingLevel { kInfo, kDebug, kTrace };

// "INFO", "DEBUG" or "TRACE" (Kafka's names, case-sensitive as in Java); nullopt otherwise.
std::optional<RecordingLevel> ParseRecordingLevel(std::string_view name);

// Kafka's MetricConfig defaults: two samples of 30 s.
struct WindowConfig {
  int samples = 2;
  int64_t window_ms = 30000;
};

using Tags = std::vector<std::pair<std::string, std::string>>;  // in MBean order

struct MetricName {
  std::string domain;  // e.g. "kafka.connect.mirror"
  std::string group;   // the MBean `type`, e.g. "MirrorSourceConnector"
  std::string name;    // e.g. "record-count"
  Tags tags;

  // A stable identity for maps: every part, separated by characters names cannot hold.
  std::string Key() const;
};

struct SensorIdentity;

// A metric's name as the registry holds it, copying nothing: valid while its sensor is
// published (during a Visit callback).
struct MetricNameView {
  std::string_view domain;
  std::string_view group;
  std::string_view name;
  const Tags& tags;
  // The same for every metric with these domain, group and tags while any of them is
  // published (a reader may group by it instead of comparing tags); null when not known.
  const SensorIdentity* identity = nullptr;

  MetricName ToName() const;
};

struct StatSpec {
  std::string name;
  std::string description;
  StatKind kind;
  RecordingLevel level = RecordingLevel::kInfo;

  friend bool operator<(const StatSpec& a, const StatSpec& b) {
    return std::tie(a.name, a.description, a.kind, a.level) <
           std::tie(b.name, b.description, b.kind, b.level);
  }
};

// What the metrics of a sensor share: the registry keeps one per distinct domain, group and
// tags (a mirrored partition's dozen sensors share one), so that 10,000 partitions do not
// hold their tags 170,000 times.
struct SensorIdentity {
  std::string domain;
  std::string group;
  Tags tags;
};

class MetricsScope;

class Sensor {
 public:
  // `stats` point into the registry's interned specs, which live as long as it does.
  Sensor(MetricsScope* scope, std::shared_ptr<const SensorIdentity> identity,
         std::vector<const StatSpec*> stats, WindowConfig window, int64_t now_ms,
         GaugeFunction gauge = {});

  // Records `value` at `now_ms` (Unix ms).
  void Record(double value, int64_t now_ms) { RecordMany(value, 1, now_ms); }
  // Records `value` `count` (>= 1) times at `now_ms`, as many Record calls would.
  void RecordMany(double value, int64_t count, int64_t now_ms);
  // The value of stat `i` (the order of the specs) at `now_ms`.
  double Measure(size_t i, int64_t now_ms) const;

  size_t stat_count() const { return stats_.size(); }
  const StatSpec& stat(size_t i) const { return *stats_[i]; }
  const SensorIdentity& identity() const { return *identity_; }
  // The name of stat `i`'s metric.
  MetricNameView name(size_t i) const {
    return MetricNameView{identity_->domain, identity_->group, stats_[i]->name, identity_->tags,
                          identity_.get()};
  }
  // The scope that added this sensor.
  MetricsScope* scope() const { return scope_; }

 private:
  struct Sample {
    int64_t start_ms = 0;
    int64_t count = 0;
    double sum = 0;
    double min = 0;
    double max = 0;
  };
  // Samples older than samples * window no longer count.
  bool Live(const Sample& sample, int64_t now_ms) const;
  double WindowedRate(int64_t now_ms) const;

  MetricsScope* const scope_;
  const std::shared_ptr<const SensorIdentity> identity_;
  // Inline: reading a metric touches the sensor, not another allocation.
  const absl::InlinedVector<const StatSpec*, 2> stats_;
  const WindowConfig window_;
  const GaugeFunction gauge_;  // kGauge stats

  // The windows of the Rate, Min, Max and Avg stats; none for a sensor without one of them
  // (most of a mirrored partition's sensors: a Value or a count).
  const int sample_count_;

  // Not absl::Mutex: Debian's Abseil is built with its deadlock detection on, which costs a
  // graph lookup per lock.
  mutable std::mutex mu_;
  // Written under mu_, read without it.
  std::atomic<double> last_ = 0;
  std::atomic<int64_t> count_ = 0;
  std::atomic<double> sum_ = 0;
  std::unique_ptr<Sample[]> samples_;  // guarded by mu_; sample_count_ of them
  int current_ = 0;                    // guarded by mu_
};

// One measured metric.
struct MetricValue {
  MetricName name;
  std::string description;
  StatKind kind;
  double value;
  RecordingLevel level = RecordingLevel::kInfo;
};

// All published metrics of the process.
class MetricsRegistry {
 public:
  explicit MetricsRegistry(WindowConfig window = {},
                           RecordingLevel served_level = RecordingLevel::kInfo)
      : window_(window), served_level_(served_level) {}

  // Every metric at or below the registry's served level, sorted by domain, group, name then
  // tags: what a reporter exposes.
  std::vector<MetricValue> Snapshot(int64_t now_ms) const;
  // The metrics of one domain and group (MBean type), every level, in the same order: what an
  // in-process reader of one group asks for, without measuring the rest.
  std::vector<MetricValue> Snapshot(int64_t now_ms, std::string_view domain,
                                    std::string_view group) const;
  // Calls `visit` with each metric of one domain and group and its value, copying nothing (the
  // name is valid during the call). Not under the registry's lock. With `names`, only the
  // metrics of those names are found and measured (a windowed stat or a gauge is measured under
  // its sensor's lock), name by name in the order given; without, the whole group in snapshot
  // order.
  void Visit(int64_t now_ms, std::string_view domain, std::string_view group,
             const std::function<void(const MetricNameView&, double)>& visit,
             std::span<const std::string_view> names = {}) const;

 private:
  friend class MetricsScope;
  std::shared_ptr<Sensor> Add(MetricsScope* scope, const std::string& domain,
                              const std::string& group, const Tags& tags,
                              std::vector<StatSpec> stats, int64_t now_ms,
                              GaugeFunction gauge = {});
  void Remove(const Sensor* sensor);

  const WindowConfig window_;
  const RecordingLevel served_level_;
  mutable std::mutex mu_;
  // One published metric: a sensor and the index of the stat in it.
  struct Published {
    std::shared_ptr<Sensor> sensor;
    size_t index = 0;
    MetricNameView name() const { return sensor->name(index); }
  };
  // Keys that compare as every published metric they prefix: a group's, or one name's in a group.
  struct GroupName {
    std::string_view domain, group;
    static auto Of(const MetricNameView& n) { return std::tie(n.domain, n.group); }
    auto Tie() const { return std::tie(domain, group); }
  };
  struct StatName {
    std::string_view domain, group, name;
    static auto Of(const MetricNameView& n) { return std::tie(n.domain, n.group, n.name); }
    auto Tie() const { return std::tie(domain, group, name); }
  };
  template <typename T>
  static constexpr bool kIsPrefix = std::is_same_v<T, GroupName> || std::is_same_v<T, StatName>;
  // Orders published metrics by domain, group, name then tags (MetricName::Key's order).
  struct NameOrder {
    using is_transparent = void;
    static MetricNameView View(const Published& p) { return p.name(); }
    static const MetricNameView& View(const MetricNameView& n) { return n; }
    template <typename A, typename B>
    bool operator()(const A& a, const B& b) const {
      if constexpr (kIsPrefix<A>) {
        return a.Tie() < A::Of(View(b));
      } else if constexpr (kIsPrefix<B>) {
        return B::Of(View(a)) < b.Tie();
      } else {
        return Less(View(a), View(b));
      }
    }
    static bool Less(const MetricNameView& a, const MetricNameView& b);
  };
  std::vector<MetricValue> Measure(const std::vector<Published>& metrics, int64_t now_ms) const;
  // The group's metrics, or those of `names` in it (name by name).
  std::vector<Published> Group(std::string_view domain, std::string_view group,
                               std::span<const std::string_view> names = {}) const;
  // The shared identity for `domain`, `group` and `tags`, made when none is alive.
  std::shared_ptr<const SensorIdentity> Identity(const std::string& domain,
                                                 const std::string& group, const Tags& tags);
  // `spec`'s interned copy.
  const StatSpec* Intern(StatSpec spec);

  // In a B-tree: ~30 bytes a metric where a map node with its key was ~700 (170,000 metrics
  // for 10,000 mirrored partitions).
  absl::btree_set<Published, NameOrder> by_metric_;  // guarded by mu_
  // Identity key (SensorIdentityKey) -> the identity while a sensor holds it. Expired entries
  // are swept when the map has doubled since the last sweep.
  std::unordered_map<std::string, std::weak_ptr<const SensorIdentity>> identities_;  // mu_
  size_t identities_swept_at_ = 0;                                                   // mu_
  std::set<StatSpec> specs_;  // guarded by mu_; a handful per plugin, never removed
};

// The sensors of one task or connector. Destroying it unpublishes them.
class MetricsScope {
 public:
  explicit MetricsScope(MetricsRegistry* registry) : registry_(registry) {}
  ~MetricsScope();
  MetricsScope(const MetricsScope&) = delete;
  MetricsScope& operator=(const MetricsScope&) = delete;

  // nullptr for an empty group, no stats or an empty stat name. A sensor that publishes a name
  // already published (by any scope) unpublishes the older sensor entirely; the older one
  // stays valid for recording until its own scope ends.
  Sensor* AddSensor(const std::string& domain, const std::string& group, const Tags& tags,
                    std::vector<StatSpec> stats, int64_t now_ms);
  // One metric computed when read (its stat's kind is set to kGauge); nullptr as AddSensor.
  Sensor* AddGauge(const std::string& domain, const std::string& group, const Tags& tags,
                   StatSpec stat, GaugeFunction gauge);
  // Unpublishes and frees `sensor`; its owner must not record into it any more.
  void RemoveSensor(Sensor* sensor);
  MetricsRegistry* registry() const { return registry_; }
  // Unpublishes every sensor of the scope but keeps them recordable until the scope is
  // destroyed (a task that ended: its plugin may still be finishing a call).
  void UnpublishAll();

 private:
  MetricsRegistry* const registry_;
  std::mutex mu_;
  std::vector<std::shared_ptr<Sensor>> sensors_;  // guarded by mu_
};

// Unix time in ms.
int64_t NowMs();

}  // namespace connectd::metrics

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

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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

struct StatSpec {
  std::string name;
  std::string description;
  StatKind kind;
  RecordingLevel level = RecordingLevel::kInfo;
};

class MetricsScope;

class Sensor {
 public:
  Sensor(MetricsScope* scope, std::vector<MetricName> names, std::vector<StatSpec> stats,
         WindowConfig window, int64_t now_ms, GaugeFunction gauge = {});

  // Records `value` at `now_ms` (Unix ms).
  void Record(double value, int64_t now_ms);
  // The value of stat `i` (the order of the specs) at `now_ms`.
  double Measure(size_t i, int64_t now_ms) const;

  const std::vector<MetricName>& names() const { return names_; }
  const std::vector<StatSpec>& stats() const { return stats_; }
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
  const std::vector<MetricName> names_;
  const std::vector<StatSpec> stats_;
  const WindowConfig window_;
  const GaugeFunction gauge_;  // kGauge stats

  mutable std::mutex mu_;
  double last_ = 0;              // guarded by mu_
  int64_t count_ = 0;            // guarded by mu_
  double sum_ = 0;               // guarded by mu_
  std::vector<Sample> samples_;  // guarded by mu_
  size_t current_ = 0;           // guarded by mu_
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
  // Calls `visit` with each metric of one domain and group and its value, in snapshot order,
  // copying nothing (the name is valid during the call). Not under the registry's lock.
  // `wanted`, when set, picks the metrics to measure (and visit) by name first: measuring takes
  // the sensor's lock.
  void Visit(int64_t now_ms, std::string_view domain, std::string_view group,
             const std::function<void(const MetricName&, double)>& visit,
             const std::function<bool(const MetricName&)>& wanted = nullptr) const;

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
  // MetricName::Key() -> the sensor and the index of the name in it. The key's order is the
  // snapshot's (its separators sort below any printable character).
  struct Published {
    std::shared_ptr<Sensor> sensor;
    size_t index = 0;
  };
  std::vector<MetricValue> Measure(std::vector<Published> metrics, int64_t now_ms) const;
  std::vector<Published> Group(std::string_view domain, std::string_view group) const;
  std::map<std::string, Published, std::less<>> by_metric_;  // guarded by mu_
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

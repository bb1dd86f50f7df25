// File: connectd/sdk/metrics.h
//
// Kafka-style sensors for plugins (ABI 1.3). A task or connector asks its context for its
// metrics scope, adds sensors with the stats Kafka's metrics library defines, and records:
//
//   sdk::Sensor records = context().metrics().sensor(
//       "kafka.connect.mirror", "MirrorSourceConnector",
//       {{"source", "A"}, {"target", "B"}, {"topic", "A.orders"}, {"partition", "0"}},
//       {{"record-count", sdk::Stat::kCumulativeCount, "Number of replicated records"},
//        {"record-rate", sdk::Stat::kRate, "Replicated records per second"}});
//   records.record(1);
//
// The host removes a scope's sensors when its task or connector ends. On a host older than
// 1.3 every sensor is inert (recording does nothing), so a plugin needs no version checks.
// A stat at RecordingLevel::kDebug (ABI 1.6) is served by GET /metrics only when the worker's
// metrics.recording.level is DEBUG; a 1.3-1.5 host serves it at INFO.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "connectd/sdk/host.h"

namespace connectd::sdk {

enum class Stat : int32_t {
  kValue = CONNECTD_STAT_VALUE,
  kCumulativeCount = CONNECTD_STAT_CUMULATIVE_COUNT,
  kCumulativeSum = CONNECTD_STAT_CUMULATIVE_SUM,
  kRate = CONNECTD_STAT_RATE,
  kMin = CONNECTD_STAT_MIN,
  kMax = CONNECTD_STAT_MAX,
  kAvg = CONNECTD_STAT_AVG,
};

// Kafka's Sensor.RecordingLevel: DEBUG for detail an operator opts into (label cardinality).
enum class RecordingLevel { kInfo, kDebug };

struct MetricStat {
  std::string name;
  Stat kind;
  std::string description;
  RecordingLevel level = RecordingLevel::kInfo;
};

using MetricTags = std::vector<std::pair<std::string, std::string>>;

// True if the host offers the 1.3 metrics functions.
inline bool HostHasMetrics() {
  return Host().struct_size >=
         offsetof(connectd_host_api, sensor_remove) + sizeof(Host().sensor_remove);
}

// A handle to a host sensor; copyable, inert when default-constructed.
class Sensor {
 public:
  Sensor() = default;
  explicit Sensor(connectd_sensor_host_ptr* handle) : handle_(handle) {}

  // Records `value` now, or at `time_ms` (Unix ms). Thread-safe.
  void record(double value = 1.0, int64_t time_ms = 0) const {
    if (handle_ != nullptr) Host().sensor_record(handle_, value, time_ms);
  }
  // Records `value` `count` times at once (ABI 1.7; an older host gets `count` calls).
  void recordMany(double value, int64_t count, int64_t time_ms = 0) const {
    if (handle_ == nullptr || count <= 0) return;
    if (Host().struct_size >= offsetof(connectd_host_api, sensor_record_many) +
                                  sizeof(Host().sensor_record_many)) {
      Host().sensor_record_many(handle_, value, count, time_ms);
      return;
    }
    for (int64_t i = 0; i < count; ++i) Host().sensor_record(handle_, value, time_ms);
  }
  // Unpublishes the sensor early; every copy of this handle becomes unusable.
  void remove() {
    if (handle_ != nullptr) Host().sensor_remove(handle_);
    handle_ = nullptr;
  }
  explicit operator bool() const { return handle_ != nullptr; }

 private:
  connectd_sensor_host_ptr* handle_ = nullptr;
};

// A task's or connector's metrics scope.
class Metrics {
 public:
  explicit Metrics(connectd_metrics_host_ptr* scope) : scope_(scope) {}

  Sensor sensor(const std::string& domain, const std::string& group, const MetricTags& tags,
                const std::vector<MetricStat>& stats) const {
    if (scope_ == nullptr) return Sensor();
    std::vector<connectd_metric_tag> c_tags;
    c_tags.reserve(tags.size());
    for (const auto& [key, value] : tags) c_tags.push_back({ToStr(key), ToStr(value)});
    std::vector<connectd_metric_stat> c_stats;
    c_stats.reserve(stats.size());
    const bool host_has_levels = Host().abi_minor >= 6;
    for (const MetricStat& stat : stats) {
      int32_t kind = static_cast<int32_t>(stat.kind);
      if (stat.level == RecordingLevel::kDebug && host_has_levels) kind |= CONNECTD_STAT_DEBUG;
      c_stats.push_back({ToStr(stat.name), ToStr(stat.description), kind});
    }
    return Sensor(Host().sensor_add(scope_, ToStr(domain), ToStr(group), c_tags.data(),
                                    c_tags.size(), c_stats.data(), c_stats.size()));
  }

 private:
  connectd_metrics_host_ptr* scope_;
};

}  // namespace connectd::sdk

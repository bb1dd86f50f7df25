// File: mirror_task_metrics.h
//
// The MirrorSourceConnector metrics of one worker (kafka.connect.mirror:type=
// MirrorSourceConnector, one series set per source,target,topic,partition), grouped per
// partition, and their JSON: what GET /mirror/task-metrics answers so that another worker's
// flow-health service can tell whether the tasks this worker runs report anything.
//
// Threads: pure functions; any thread.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/metrics/metrics.h"

namespace connectd::health {

struct MirrorPartitionMetrics {
  std::string source;
  std::string target;
  std::string topic;  // the remote (target) topic, as Kafka tags it
  int partition = 0;
  std::map<std::string, double> values;  // metric name -> value (NaN: empty window)
};

// The MirrorSourceConnector series of `snapshot`, per partition.
std::vector<MirrorPartitionMetrics> MirrorTaskMetrics(
    const std::vector<metrics::MetricValue>& snapshot);
// The same from `registry`, measuring only MirrorSource's metrics (the bulk of a worker's
// metrics, but never the rest of them).
std::vector<MirrorPartitionMetrics> MirrorTaskMetrics(const metrics::MetricsRegistry& registry,
                                                      int64_t now_ms);

// How long brokers throttled each source task producer of this worker lately, by client id
// (kafka.producer:type=producer-metrics produce-throttle-time-max, recorded by the worker for
// its source tasks' producers); producers with no throttling in the window are left out.
using ProducerThrottle = std::map<std::string, double>;
ProducerThrottle ProducerThrottleMs(const metrics::MetricsRegistry& registry, int64_t now_ms);

// {"worker_id":"h:p","partitions":[{"source","target","topic","partition","metrics":{..}}],
//  "producer_throttle_ms":{client id: ms}}; NaN values are null.
std::string MirrorTaskMetricsJson(const std::vector<MirrorPartitionMetrics>& partitions,
                                  const std::string& worker_id,
                                  const ProducerThrottle& producer_throttle = {});

// Parses MirrorTaskMetricsJson's output (null -> NaN). kInvalidArgument on anything else.
// `producer_throttle` (may be null) gets the document's producer throttling (empty if absent).
absl::StatusOr<std::vector<MirrorPartitionMetrics>> ParseMirrorTaskMetricsJson(
    std::string_view json, ProducerThrottle* producer_throttle = nullptr);

}  // namespace connectd::health

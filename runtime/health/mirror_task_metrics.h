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

// {"worker_id":"h:p","partitions":[{"source","target","topic","partition","metrics":{..}}]};
// NaN values are null.
std::string MirrorTaskMetricsJson(const std::vector<MirrorPartitionMetrics>& partitions,
                                  const std::string& worker_id);

// Parses MirrorTaskMetricsJson's output (null -> NaN). kInvalidArgument on anything else.
absl::StatusOr<std::vector<MirrorPartitionMetrics>> ParseMirrorTaskMetricsJson(
    std::string_view json);

}  // namespace connectd::health

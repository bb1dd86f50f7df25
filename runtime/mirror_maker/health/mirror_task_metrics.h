// File: mirror_task_metrics.h
//
// The MirrorSourceConnector metrics of one worker (kafka.connect.mirror:type=
// MirrorSourceConnector, one series set per source,target,topic,partition), grouped per
// partition, and their JSON: what GET /mirror/task-metrics answers so that another worker's
// flow-health service can tell whether the tasks this worker runs report anything.
//
// Threads: pure functions; any thread.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "runtime/metrics/metrics.h"

namespace connectd::health {

// The names of the per-partition MirrorSource metrics flow health reads, sorted.
std::span<const std::string_view> FlowHealthPartitionMetrics();

// A partition's values of the metrics flow health reads (FlowHealthPartitionMetrics()): a slot
// per name, no map of strings (a worker reads 10,000 partitions' every 2 s).
class PartitionMetricValues {
 public:
  // Keeps `value` (NaN: an empty window) for `name`; false, keeping nothing, for a name flow
  // health does not read.
  bool Set(std::string_view name, double value);
  // The value kept for `name`, if any.
  std::optional<double> Get(std::string_view name) const;
  // The same when it is finite (not an empty window).
  std::optional<double> Finite(std::string_view name) const;
  // The kept (name, value) pairs in name order.
  std::vector<std::pair<std::string_view, double>> Entries() const;

  // The same names kept, with equal values (two empty windows are equal).
  friend bool operator==(const PartitionMetricValues& a, const PartitionMetricValues& b);

 private:
  static constexpr size_t kSlots = 16;
  std::array<double, kSlots> values_{};
  uint32_t kept_ = 0;  // bit i: values_[i] was set
};

struct MirrorPartitionMetrics {
  std::string source;
  std::string target;
  std::string topic;  // the remote (target) topic, as Kafka tags it
  int partition = 0;
  PartitionMetricValues values;
};

// The MirrorSourceConnector series of `snapshot` that flow health reads, per partition.
std::vector<MirrorPartitionMetrics> MirrorTaskMetrics(
    const std::vector<metrics::MetricValue>& snapshot);
// The same from `registry`, finding and measuring only those metrics: a worker mirroring
// 10,000 partitions publishes about 20 per partition, and measuring them all every refresh
// (2 s) was most of its idle CPU (perf: 23-27% of a core, the sensors' locks, tag strings and
// maps).
std::vector<MirrorPartitionMetrics> MirrorTaskMetrics(const metrics::MetricsRegistry& registry,
                                                      int64_t now_ms);

// How long brokers throttled each source task producer of this worker lately, by client id
// (kafka.producer:type=producer-metrics produce-throttle-time-max, recorded by the worker for
// its source tasks' producers); producers with no throttling in the window are left out.
using ClientThrottle = std::map<std::string, double>;  // client id -> ms
ClientThrottle ProducerThrottleMs(const metrics::MetricsRegistry& registry, int64_t now_ms);
// The same for the MirrorSource tasks' source consumers (kafka.consumer:type=
// consumer-fetch-manager-metrics fetch-throttle-time-max, recorded by MirrorSourceTask), by
// client id ("A->B|<connector>-<task>|replication-consumer", after a configured client.id).
ClientThrottle ConsumerThrottleMs(const metrics::MetricsRegistry& registry, int64_t now_ms);

// What a MirrorSourceConnector's target admin client reported for a remote topic it had to
// create or grow (connectd.mirror:type=MirrorSourceConnector admin-error-*, see
// connectors/mirror/remote_topic_errors.h).
struct RemoteTopicError {
  std::string source;
  std::string target;
  std::string topic;      // the remote topic
  std::string operation;  // create-topics, create-partitions
  int code = 0;           // Kafka's or librdkafka's; 0: the operation succeeded since
  int64_t count = 0;
  int64_t first_ms = 0;
  int64_t last_ms = 0;
};
std::vector<RemoteTopicError> RemoteTopicErrors(const metrics::MetricsRegistry& registry,
                                                int64_t now_ms);

// Everything flow health reads of one worker's MirrorMaker metrics: what GET
// /mirror/task-metrics serves to the other workers.
struct WorkerMirrorMetrics {
  std::vector<MirrorPartitionMetrics> partitions;
  ClientThrottle producer_throttle;
  ClientThrottle consumer_throttle;  // ConsumerThrottleMs
  std::vector<RemoteTopicError> remote_topic_errors;
};
WorkerMirrorMetrics ReadWorkerMirrorMetrics(const metrics::MetricsRegistry& registry,
                                            int64_t now_ms);

// {"worker_id":"h:p","partitions":[{"source","target","topic","partition","metrics":{..}}],
//  "producer_throttle_ms":{client id: ms}, "consumer_throttle_ms":{client id: ms},
//  "remote_topic_errors":[{"source","target","topic","operation","code","count","first_ms",
//                          "last_ms"}]}; NaN values are null.
std::string WorkerMirrorMetricsJson(const WorkerMirrorMetrics& metrics,
                                    const std::string& worker_id);

// Parses WorkerMirrorMetricsJson's output (null -> NaN; the last three members may be absent,
// as in the answers of older workers). kInvalidArgument on anything else.
absl::StatusOr<WorkerMirrorMetrics> ParseWorkerMirrorMetricsJson(std::string_view json);

}  // namespace connectd::health

// File: client_metrics.h
//
// ClientMetrics: a librdkafka client's statistics (its stats_cb JSON, every
// statistics.interval.ms) published under the names Java's Kafka clients give their metrics, so
// that dashboards built on the JMX exporter's names work on connectd:
//   kafka.producer:type=producer-metrics,client-id=<id>
//     record-send-total/-rate, request-total/-rate, response-total/-rate,
//     outgoing-byte-total/-rate, incoming-byte-total/-rate, request-latency-avg/-max,
//     record-queue-time-avg/-max, batch-size-avg/-max, buffer-total-bytes,
//     buffer-available-bytes, requests-in-flight, metadata-age, connection-count,
//     connection-creation-total, connection-close-total
//   kafka.consumer:type=consumer-fetch-manager-metrics,client-id=<id>
//     records-lag-max, records-consumed-total/-rate, bytes-consumed-total/-rate,
//     fetch-total/-rate, fetch-throttle-time-avg/-max
//   kafka.consumer:type=consumer-fetch-manager-metrics,client-id=<id>,topic=<t>,partition=<p>
//     records-lag, records-lead                      (each assigned partition)
//   kafka.consumer:type=consumer-coordinator-metrics,client-id=<id>
//     assigned-partitions, commit-total/-rate, heartbeat-total/-rate, join-total/-rate,
//     sync-total/-rate, rebalance-total, last-rebalance-seconds-ago
// Totals and rates come from the growth of librdkafka's cumulative counters between two
// statistics (a rate over Kafka's two 30 s windows, as Java's); latencies and sizes from its
// per-interval windows (milliseconds and bytes, as Java's); lags from its partition offsets.
// What librdkafka does not count (record errors, compression rate, Java's buffer-pool waits) is
// not published.
//
// Threads: Update on the thread that serves the client's callbacks (one at a time); the
// sensors are read by the metrics reader.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "runtime/metrics/metrics.h"

namespace connectd::kafka {

// The statistics interval set on a client whose config does not name one.
inline constexpr char kDefaultStatisticsIntervalMs[] = "10000";

class ClientMetrics {
 public:
  enum class Kind { kProducer, kConsumer };

  // Publishes into `scope` (which outlives this object) under `client_id`.
  ClientMetrics(metrics::MetricsScope& scope, Kind kind, std::string client_id);

  // One statistics JSON document; a malformed one is ignored.
  void Update(std::string_view json);

 private:
  metrics::Sensor* Sensor(const std::string& group, const metrics::Tags& tags,
                          std::vector<metrics::StatSpec> stats);
  // Records the growth of a cumulative counter `key` (first sight: its whole value).
  void RecordGrowth(metrics::Sensor* sensor, const std::string& key, double now_value);

  metrics::MetricsScope& scope_;
  const Kind kind_;
  const std::string client_id_;
  std::map<std::string, double> last_;               // cumulative counter -> its last value
  std::map<std::string, metrics::Sensor*> sensors_;  // "<group>/<first stat>/<tags>" -> sensor
  std::map<std::pair<std::string, int32_t>, metrics::Sensor*> partitions_;  // per-partition
};

}  // namespace connectd::kafka

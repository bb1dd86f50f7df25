// File: task_metrics.h
//
// Connect's per-task metrics, named as Java's worker names them (MBeans in domain
// `kafka.connect`, tags connector and task), published in the task's metrics scope so they
// vanish with the task:
//   source-task-metrics  source-record-poll-rate/-total   records the plugin's poll returned
//                        source-record-write-rate/-total  records the target acknowledged
//                        poll-batch-max-time-ms/-avg-time-ms  time of one poll() call
//   sink-task-metrics    sink-record-read-rate/-total     records read from Kafka
//                        sink-record-send-rate/-total     records handed to put()
//   task-error-metrics   total-record-failures, total-record-errors, total-records-skipped,
//                        total-retries, total-errors-logged, deadletterqueue-produce-requests,
//                        deadletterqueue-produce-failures (counts), last-error-timestamp (ms)
// Rates are per second over Kafka's two 30 s samples, totals are cumulative sums.
//
// Threads: Record* on the task thread (the sensors lock internally).
#pragma once

#include <cstdint>

#include "runtime/herder_api/herder_types.h"
#include "runtime/metrics/metrics.h"

namespace connectd::worker {

class SourceTaskMetrics {
 public:
  SourceTaskMetrics(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id);
  void RecordPoll(int64_t records, int64_t poll_ms);
  void RecordWrite(int64_t records);

 private:
  metrics::Sensor* poll_;
  metrics::Sensor* poll_time_;
  metrics::Sensor* write_;
};

class SinkTaskMetrics {
 public:
  SinkTaskMetrics(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id);
  void RecordRead(int64_t records);
  void RecordSend(int64_t records);

 private:
  metrics::Sensor* read_;
  metrics::Sensor* send_;
};

// Connect's ErrorHandlingMetrics, counted as RetryWithToleranceOperator counts them: every failed
// attempt of an operation is a failure (a retriable one also a retry when it is tried again); a
// record that failed for good is an error, and with errors.tolerance=all also skipped.
class TaskErrorMetrics {
 public:
  TaskErrorMetrics(metrics::MetricsScope& scope, const herder::ConnectorTaskId& id);
  void RecordFailure();
  void RecordRetry();
  // A record failed for good; sets last-error-timestamp.
  void RecordError();
  void RecordSkipped();
  void RecordErrorLogged();
  void RecordDeadLetterQueueProduceRequest();
  void RecordDeadLetterQueueProduceFailed();

 private:
  metrics::Sensor* failures_;
  metrics::Sensor* errors_;
  metrics::Sensor* skipped_;
  metrics::Sensor* retries_;
  metrics::Sensor* logged_;
  metrics::Sensor* dlq_requests_;
  metrics::Sensor* dlq_failures_;
  metrics::Sensor* last_error_;
};

}  // namespace connectd::worker
